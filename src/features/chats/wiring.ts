// The chats feature's actors provided from the real services:
// the list, the open conversation with its read receipts, the composer's outbox store, uploads and sends,
// and the notification sound.
import { fromCallback, fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import { isRecord } from '../../contract/shape';
import { chatsMachine, type ListAnswer } from './machines/chats/chats.machine';
import { chatsFooterMachine } from './machines/chatsFooter/chatsFooter.machine';
import { RequestFailure } from '../../contract/failure';
import { composerMachine, type OutboxStoreCommand, type UploadReport } from '../composer/index';
import { type OutboxItem, parseStoredOutbox, UPLOAD_FAILED } from '../composer/index';
import { conversationMachine, type PageInput, type ReactionChange } from '../conversation/index';
import { messageEditMachine } from '../conversation/index';
import { readReceiptsMachine } from '../conversation/index';
import { recorderMachine } from '../composer/index';
import { recordVoiceActor } from '../composer/wiring';
import type { Services } from '../../core/app/services';

/**
 * Answers are not parsed against the contract here (that would put zod in the bundle): our server shapes them
 * with the contract's schemas (fast-json-stringify) and its tests check them. An answer without its list at all
 * (a proxy's error page, a misrouted request) is still a failed fetch, as a malformed answer always was: the
 * list or history stays as it was and the next fetch tries again, instead of state the page cannot draw.
 */
export function withList<T>(answer: T, key: string): T {
  if (!isRecord(answer) || !Array.isArray(answer[key])) throw new Error(`malformed answer: no ${key} list`);
  return answer;
}

/** The tab's socket id for a read, when connected (the server then skips this tab when it tells the reader's tabs). */
const readerSocket = (s: Services) => {
  const socketId = s.socketId();
  return socketId ? { socketId } : {};
};

/** No answer came (offline, timed out): not a refusal by the server. */
const noAnswer = (err: unknown) => err instanceof RequestFailure && err.status === null;

export function wireChats(s: Services) {
  return chatsMachine.provide({
    actors: {
      // The list from the server is kept for reading offline; with no answer at all, the kept one is shown.
      fetchConversations: fromPromise(async (): Promise<ListAnswer> => {
        const userId = s.currentUserId();
        try {
          const answer = withList(await s.api.call('conversations'), 'conversations');
          if (userId) void s.offline.saveList(userId, answer.conversations).catch(() => undefined);
          return answer;
        } catch (err) {
          const saved = userId && noAnswer(err) ? await s.offline.loadList(userId).catch(() => null) : null;
          if (!saved) throw err;
          return { conversations: saved, saved: true };
        }
      }),
      markRead: fromPromise<unknown, BodyOf<'markRead'>>(({ input }) => s.api.call('markRead', { body: { ...input, ...readerSocket(s) } })),
      notifier: fromCallback<{ type: 'sound.notify' }>(({ receive }) => {
        receive(() => s.sound.notify());
      }),
      conversation: conversationMachine.provide({
        actors: {
          // The latest pages are kept (last 100 messages of the 20 most recently opened conversations) and shown
          // when the server does not answer.
          fetchPage: fromPromise(async ({ input }: { input: PageInput }) => {
            const userId = s.currentUserId();
            try {
              const page = withList(
                await s.api.call('messages', {
                  params: { id: input.conversationId },
                  query: { limit: input.limit, ...(input.before ? { before: input.before } : {}) },
                }),
                'messages',
              );
              if (userId && !input.before) void s.offline.saveMessages(userId, input.conversationId, page.messages).catch(() => undefined);
              return page;
            } catch (err) {
              const saved = userId && !input.before && noAnswer(err) ? await s.offline.loadMessages(userId, input.conversationId).catch(() => null) : null;
              if (!saved) throw err;
              return { messages: saved, hasMore: false };
            }
          }),
          deleteMessage: fromPromise<unknown, BodyOf<'deleteMessage'>>(({ input }) => s.api.call('deleteMessage', { body: input })),
          react: fromPromise(({ input }: { input: ReactionChange }) => s.api.call('react', { body: input })),
          messageEdit: messageEditMachine.provide({
            actors: {
              saveEdit: fromPromise(({ input }: { input: BodyOf<'editMessage'> }) => s.api.call('editMessage', { body: input })),
            },
          }),
          readReceipts: readReceiptsMachine.provide({
            actors: {
              postReceipts: fromPromise<unknown, { messageIds: string[] }>(({ input }) =>
                s.api.call('receipts', { body: { messageIds: input.messageIds, status: 'READ', ...readerSocket(s) } }),
              ),
            },
          }),
        },
      }),
      composer: composerMachine.provide({
        actors: {
          loadOutbox: fromPromise(async ({ input }: { input: { userId: string } }) => parseStoredOutbox(s.outboxStore.load(input.userId))),
          outboxStore: fromCallback<OutboxStoreCommand, { userId: string }>(({ input, receive }) => {
            receive((command: OutboxStoreCommand) => s.outboxStore.save(input.userId, command.items satisfies OutboxItem[]));
          }),
          upload: fromCallback<{ type: string }, { file: Blob & { name?: string } }>(({ input, sendBack }) => {
            const report = (r: UploadReport) => sendBack(r);
            const abort = new AbortController();
            s.upload(input.file, {
              signal: abort.signal,
              onProgress: (percent) => {
                if (!abort.signal.aborted) report({ type: 'upload.progress', percent });
              },
            }).then(
              (result) => {
                if (!abort.signal.aborted) report({ type: 'upload.done', attachment: result.attachment });
              },
              () => {
                if (!abort.signal.aborted) report({ type: 'upload.failed', message: UPLOAD_FAILED });
              },
            );
            return () => abort.abort();
          }),
          sendMessage: fromPromise(({ input }: { input: BodyOf<'send'> }) => s.api.call('send', { body: input })),
          recorder: recorderMachine.provide({ actors: { record: recordVoiceActor } }),
        },
      }),
    },
  });
}

/** The chats footer: the clipboard for the own EBLID (its dialogs' actors are provided by the registry). */
export function wireChatsFooter() {
  return chatsFooterMachine.provide({
    actors: { copyText: fromPromise(({ input }: { input: { text: string } }) => navigator.clipboard.writeText(input.text)) },
  });
}
