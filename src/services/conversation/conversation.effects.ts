// The open conversation's actors provided from the real services: its history pages (kept for reading offline;
// the conversation and its page-back child fetch them alike), its request queues, pins, edits and read receipts.
// A module of its own: the registry loads it when a conversation is first opened or about to be
// (src/machines/app/registry.ts), not with the first bundle.
import { fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import type { Services } from '../app/services';
import { queueRun, requestQueueMachine } from '../../machines/realtime/index';
import type { RequestQueueEffects } from '../../machines/realtime/requestQueue/requestQueue.protocol';
import { noAnswer, readerSocket, withList } from '../app/rest-answers';
import {
  type ConversationEffects,
  conversationMachine,
  type DeletionRequest,
  type ReactionChange,
} from '../../machines/conversation/conversation/conversation.machine';
import {
  type MessageEditEffects,
  messageEditMachine,
} from '../../machines/conversation/messageEdit/messageEdit.machine';
import {
  type PageBackEffects,
  pageBackMachine,
  type PageInput,
} from '../../machines/conversation/pageBack/pageBack.machine';
import { type PinChange, type PinsEffects, pinsMachine } from '../../machines/conversation/pins/pins.machine';
import {
  type PreviewCardEffects,
  previewCardMachine,
} from '../../machines/conversation/previewCard/previewCard.machine';
import {
  type ReadReceiptsEffects,
  readReceiptsMachine,
} from '../../machines/conversation/readReceipts/readReceipts.machine';

export function wireConversation(s: Services) {
  // The latest pages are kept (last 100 messages of the 20 most recently opened conversations) and shown when the
  // server does not answer.
  const fetchPage = fromPromise(async ({ input }: { input: PageInput }) => {
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
  });
  return conversationMachine.provide({
    actors: {
      fetchPage,
      pageBack: pageBackMachine.provide({ actors: { fetchPage } satisfies PageBackEffects }),
      // Own deletions and reaction changes, one request at a time each (the conversation's child queues).
      deletions: requestQueueMachine.provide({
        actors: {
          run: queueRun((body: DeletionRequest) => s.api.call('deleteMessage', { body })),
        } satisfies RequestQueueEffects,
      }),
      reactions: requestQueueMachine.provide({
        actors: {
          run: queueRun((body: ReactionChange) => s.api.call('react', { body })),
        } satisfies RequestQueueEffects,
      }),
      // The pin bar: the pins once at the start, and its own queue for «Закрепить» / «Открепить».
      pins: pinsMachine.provide({
        actors: {
          fetchPins: fromPromise(({ input }: { input: { conversationId: string } }) =>
            s.api.call('pins', { params: { id: input.conversationId } }),
          ),
          pinning: requestQueueMachine.provide({
            actors: {
              run: queueRun((body: PinChange) => s.api.call('pinMessage', { body })),
            } satisfies RequestQueueEffects,
          }),
        } satisfies PinsEffects,
      }),
      // A message's link card: «Убрать предпросмотр» for the sender.
      previewCard: previewCardMachine.provide({
        actors: {
          removePreview: fromPromise<{ ok: true }, { messageId: string }>(({ input }) =>
            s.api.call('removePreview', { body: { messageId: input.messageId } }),
          ),
        } satisfies PreviewCardEffects,
      }),
      messageEdit: messageEditMachine.provide({
        actors: {
          saveEdit: fromPromise(({ input }: { input: BodyOf<'editMessage'> }) =>
            s.api.call('editMessage', { body: input }),
          ),
        } satisfies MessageEditEffects,
      }),
      readReceipts: readReceiptsMachine.provide({
        actors: {
          postReceipts: fromPromise<unknown, { messageIds: string[] }>(({ input }) =>
            s.api.call('receipts', {
              body: { messageIds: input.messageIds, status: 'READ', ...readerSocket(s.socketId()) },
            }),
          ),
        } satisfies ReadReceiptsEffects,
      }),
    } satisfies ConversationEffects,
  });
}
