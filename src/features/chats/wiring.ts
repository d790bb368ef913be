// The chats feature's actors provided from the real services:
// the list, the open conversation with its read receipts and its request queues, and the composer
// (src/features/composer/wiring.ts).
import { fromCallback, fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import { isRecord } from '../../contract/shape';
import { chatsMachine, type ListAnswer } from './machines/chats/chats.machine';
import { chatsFooterMachine } from './machines/chatsFooter/chatsFooter.machine';
import { chatActionsMachine } from './machines/chatActions/chatActions.machine';
import type { ChatAction } from './machines/chatActions/chatActions.protocol';
import { RequestFailure } from '../../contract/failure';
import {
  conversationMachine,
  type DeletionRequest,
  type PageInput,
  type PinChange,
  type ReactionChange,
} from '../conversation/index';
import { queueRun, requestQueueMachine } from '../../core/machines/requestQueue/requestQueue.machine';
import { messageEditMachine } from '../conversation/index';
import { readReceiptsMachine } from '../conversation/index';
import { wireComposer } from '../composer/wiring';
import type { Services } from '../../core/app/services';
import { systemActor } from '../../core/machines/system';
import { navigationMachine, pageTitle, type RouterCommand } from './machines/navigation/navigation.machine';
import { isMutedEntry } from './machines/chats/conversation-list';

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
      markRead: fromPromise<unknown, BodyOf<'markRead'>>(({ input }) =>
        s.api.call('markRead', { body: { ...input, ...readerSocket(s) } }),
      ),
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
              if (userId && !input.before)
                void s.offline.saveMessages(userId, input.conversationId, page.messages).catch(() => undefined);
              return page;
            } catch (err) {
              const saved =
                userId && !input.before && noAnswer(err)
                  ? await s.offline.loadMessages(userId, input.conversationId).catch(() => null)
                  : null;
              if (!saved) throw err;
              return { messages: saved, hasMore: false };
            }
          }),
          // Own deletions and reaction changes, one request at a time each (the conversation's child queues).
          deletions: requestQueueMachine.provide({
            actors: { run: queueRun((body: DeletionRequest) => s.api.call('deleteMessage', { body })) },
          }),
          reactions: requestQueueMachine.provide({
            actors: { run: queueRun((body: ReactionChange) => s.api.call('react', { body })) },
          }),
          pinning: requestQueueMachine.provide({
            actors: { run: queueRun((body: PinChange) => s.api.call('pinMessage', { body })) },
          }),
          fetchPins: fromPromise(({ input }: { input: { conversationId: string } }) =>
            s.api.call('pins', { params: { id: input.conversationId } }),
          ),
          messageEdit: messageEditMachine.provide({
            actors: {
              saveEdit: fromPromise(({ input }: { input: BodyOf<'editMessage'> }) =>
                s.api.call('editMessage', { body: input }),
              ),
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
      composer: wireComposer(s),
    },
  });
}

/** The chats footer: the clipboard for the own EBLID (its dialogs' actors are provided by the registry). */
export function wireChatsFooter() {
  return chatsFooterMachine.provide({
    actors: {
      copyText: fromPromise(({ input }: { input: { text: string } }) => navigator.clipboard.writeText(input.text)),
    },
  });
}

/** The list menu's actions: one request each. */
export const wireChatActions = (s: Services) =>
  chatActionsMachine.provide({
    actors: {
      runChatAction: fromPromise<unknown, ChatAction>(({ input }) => {
        if (input.kind === 'clear')
          return s.api.call('clearHistory', { body: { conversationId: input.conversationId } });
        if (input.kind === 'hide')
          return s.api.call('hideConversation', { body: { conversationId: input.conversationId } });
        return s.api.call('chatSettings', { params: { id: input.conversationId }, body: input.change });
      }),
    },
  });

/** The navigation actor with the app's router and the chats actor's selections. */
export function wireNavigation(s: Services) {
  return navigationMachine.provide({
    actors: {
      router: fromCallback<RouterCommand>(({ sendBack, receive }) => {
        const report = (path: string) => sendBack({ type: 'nav.location', path });
        const unsubscribe = s.router.subscribe(report);
        report(s.router.path());
        receive((command) => {
          if (command.type === 'router.back') s.router.back();
          else s.router.go(command.path, { replace: command.replace });
        });
        return unsubscribe;
      }),
      selections: fromCallback(({ system, sendBack }) => {
        const chats = systemActor(system, 'chats');
        if (!chats) return;
        const sub = chats.on('chats.selected', (e) =>
          sendBack({ type: 'nav.selected', conversationId: e.conversationId }),
        );
        return () => sub.unsubscribe();
      }),
      pageTitle: fromCallback(({ system }) => {
        const chats = systemActor(system, 'chats');
        if (!chats || typeof document === 'undefined') return;
        let shown = '';
        const show = () => {
          const { entries } = chats.getSnapshot().context;
          const now = Date.now();
          // Muted chats are not news (as their badge is grey).
          const unread = entries.reduce((n, e) => (isMutedEntry(e, now) ? n : n + e.unreadCount), 0);
          const title = pageTitle(unread);
          if (title !== shown) document.title = shown = title;
        };
        show();
        const sub = chats.subscribe(show);
        return () => sub.unsubscribe();
      }),
    },
  });
}
