// The open conversation (docs/behaviour.md §2, §4; the chats actor's child 'conversation', its code loaded on demand).
// History: the latest page first, older pages on demand (`?before=&limit=`, hasMore), each message once
// whether it came from the socket (message:new and message:notify alike), the send answer or a page.
// Deleted messages leave the list; receipts:update adds read marks; edits change the message and its quotes.
// After a reconnection the latest page is fetched again, so nothing sent during the gap is missed.
// What is not the history is its children's: the socket room and the server events (server.ts), typing, read
// receipts and edits, own deletions and reactions sent one after another by the request queues 'deletions' and
// 'reactions', the pin bar ('pins'), and "page until found" ('pageBack': older pages up to a quoted message or
// search result, and on opening up to the first unread, where «Непрочитанные сообщения» goes).
// Reactions are shown at once (reactions:update from the server is the truth; a failure refetches the page); own
// deletions leave the list at once (a failure is ignored: the message returns with the next refresh).
// What only makes the view move (a jump's scroll and flash, going to the bottom after an own send, the open image)
// is emitted, not kept: the view hooks listen (conversation.protocol.ts, ConversationEmitted). The one message the
// keyboard is on (the timeline's roving tabindex, §10.48) is kept: the virtualized list unmounts rows out of view.
import { assertEvent, assign, emit, enqueueActions, raise, sendTo, setup } from 'xstate';
import { composerReports } from './composer-reports';
import { LIMITS } from '../../../contract/limits';
import { requestQueueMachine } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import { messageEditMachine } from '../messageEdit/messageEdit.machine';
import { morePages, type Page, type PageBackOutput, pageBackMachine, reached } from '../pageBack/pageBack.machine';
import { pinsMachine } from '../pins/pins.machine';
import { previewCardId, previewCardMachine } from '../previewCard/previewCard.machine';
import { readReceiptsMachine } from '../readReceipts/readReceipts.machine';
import { typingMachine } from '../typing/typing.machine';
import type {
  ConversationContext,
  ConversationEffects,
  ConversationEmitted,
  ConversationEvent,
  ConversationInput,
  DeletionRequest,
  PageInput,
  ReactionChange,
} from './conversation.protocol';
import { FIRST_ITEM_INDEX, firstUnread, prependPage, takeLatestPage } from './history';
import { focusTarget } from './timeline-focus';
import { historyAfter, reactionOn } from './history-events';
import { conversationRoom, conversationServerEvents } from './server';

export * from './conversation.protocol';
export { conversationRoom, conversationServerEvents } from './server';

/** Fallbacks of the request queues' failures (not shown today: a failed deletion is ignored, a reaction refetched). */
const DELETE_FAILED = 'Не удалось удалить сообщение';
const REACT_FAILED = 'Не удалось изменить реакцию';

/** The history of a page request: the latest page, or the one before the oldest message held. */
const pageOf = (context: ConversationContext, limit: number, older = false): PageInput => ({
  conversationId: context.conversationId,
  ...(older ? { before: context.messages[0]?.id } : {}),
  limit,
});

/** An older page in front of the history; the list's first index lowered by the messages it adds. */
function withOlder(context: ConversationContext, page: Page): Partial<ConversationContext> {
  const { messages, added } = prependPage(context.messages, page.messages);
  return { messages, hasMore: page.hasMore, firstItemIndex: context.firstItemIndex - added };
}

export const conversationMachine = setup({
  types: {
    context: {} as ConversationContext,
    events: {} as ConversationEvent,
    input: {} as ConversationInput,
    emitted: {} as ConversationEmitted,
    children: {} as {
      typing: 'typing';
      readReceipts: 'readReceipts';
      messageEdit: 'messageEdit';
      deletions: 'deletions';
      reactions: 'reactions';
      pins: 'pins';
      pageBack: 'pageBack';
      [card: `previewCard:${string}`]: 'previewCard';
    },
  },
  actors: {
    serverEvents: conversationServerEvents,
    room: conversationRoom,
    /** The composer's deliveries and sends (its emitted events), heard directly. */
    composerReports,
    fetchPage: notWired('conversation.fetchPage') as ConversationEffects['fetchPage'],
    deletions: requestQueueMachine,
    reactions: requestQueueMachine,
    typing: typingMachine,
    readReceipts: readReceiptsMachine,
    messageEdit: messageEditMachine,
    pins: pinsMachine,
    pageBack: pageBackMachine,
    previewCard: previewCardMachine,
  },
  guards: {
    here: ({ context, event }) =>
      'conversationId' in event
        ? event.conversationId === context.conversationId
        : (event.type === 'conversation.messageArrived' || event.type === 'conversation.messageSent') &&
          event.message.conversationId === context.conversationId,
    canLoadOlder: ({ context }) => context.hasMore && context.messages.length > 0,
    isLoaded: ({ context, event }) => {
      assertEvent(event, 'conversation.jumpTo');
      return context.messages.some((m) => m.id === event.messageId);
    },
    /** Opened at a message (a search result) that the first page holds. */
    openedAtLoaded: ({ context }) => context.seekId !== null && context.messages.some((m) => m.id === context.seekId),
    openedAtOlder: ({ context }) => context.seekId !== null,
    found: (_, output: PageBackOutput) => output.found,
    /** More unread messages than this first page holds, and the server has older ones (pageBack's goal). */
    unreadBeyond: ({ context: c }, page: Page) =>
      c.unreadAtOpen > 0 && morePages(page) && !reached({ unread: c.unreadAtOpen, me: c.me }, c.messages, page),
    /** A report of the reactions queue (the deletions queue's are not acted on). */
    fromReactions: ({ event }) => 'queue' in event && event.queue === 'reactions',
    /** Reactions go to messages the server has and that are shown. */
    shownMessage: ({ context, event }) => {
      assertEvent(event, 'conversation.react');
      return context.messages.some((m) => m.id === event.messageId);
    },
    /** There is a row to move the focus to. */
    hasRows: ({ event }) => {
      assertEvent(event, 'conversation.moveFocus');
      return event.ids.length > 0;
    },
    /** Only the sender deletes, and only what is shown. */
    ownShown: ({ context, event }) => {
      assertEvent(event, 'conversation.delete');
      return context.messages.some((m) => m.id === event.messageId && m.senderId === context.me);
    },
  },
  actions: {
    // The history's own change (history-events.ts); the effects that go with an event are the actions after it.
    take: assign({ messages: ({ context, event }) => historyAfter(context, event) }),
    takeLatest: assign(({ context }, page: Page) => takeLatestPage(context.messages, context.hasMore, page)),
    takeOlder: assign(({ context }, page: Page) => withOlder(context, page)),
    // Someone who sends has stopped typing.
    stopRemoteTyping: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'conversation.messageArrived');
      if (event.message.senderId !== context.me) {
        enqueue.sendTo('typing', { type: 'typing.remoteSent', userId: event.message.senderId });
      }
    }),
    // A page pageBack found goes in front of the history; pageBack judges its goal on the history as it was before.
    takePageBack: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'pageBack.page');
      enqueue.sendTo('pageBack', { type: 'pageBack.history', messages: context.messages });
      enqueue.assign(withOlder(context, event.page));
    }),
    seek: assign({
      seekId: ({ event }) => {
        assertEvent(event, 'conversation.jumpTo');
        return event.messageId;
      },
    }),
    retarget: sendTo('pageBack', ({ event }) => {
      assertEvent(event, 'conversation.jumpTo');
      return { type: 'pageBack.retarget' as const, messageId: event.messageId };
    }),
    // The view scrolls to the message and flashes it, on every jump (also a second one to the same message).
    highlightJump: emit(({ event }) => {
      assertEvent(event, 'conversation.jumpTo');
      return { type: 'conversation.scrollTo' as const, messageId: event.messageId };
    }),
    highlightFound: enqueueActions(({ context, enqueue }) => {
      if (context.seekId !== null) enqueue.emit({ type: 'conversation.scrollTo', messageId: context.seekId });
      enqueue.assign({ seekId: null });
    }),
    stopSeeking: assign({ seekId: null }),
    toBottom: emit({ type: 'conversation.toBottom' }),
    openImage: emit(({ event }) => {
      assertEvent(event, 'conversation.openImage');
      return { type: 'conversation.imageOpened' as const, messageId: event.messageId, index: event.index };
    }),
    closeImage: emit({ type: 'conversation.imageClosed' }),
    // Gone for everyone: from the pin bar too.
    unpin: sendTo('pins', ({ event }) => {
      assertEvent(event, ['conversation.messageDeleted', 'conversation.delete']);
      return { type: 'pins.removed' as const, messageId: event.messageId };
    }),
    // Shown again (undone on another device): the page as the server has it brings them back.
    refetchShown: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'conversation.messagesHidden');
      if (!event.hidden) enqueue.raise({ type: 'conversation.refresh' });
    }),
    forwardPins: sendTo('pins', ({ event }) => {
      assertEvent(event, 'conversation.pins');
      return { type: 'pins.changed' as const, pins: event.pins };
    }),
    forwardPin: sendTo('pins', ({ context, event }) => {
      assertEvent(event, 'conversation.pin');
      const shown = context.messages.some((m) => m.id === event.messageId);
      return { type: 'pins.pin' as const, messageId: event.messageId, on: event.on, shown };
    }),
    pinJump: sendTo('pins', { type: 'pins.jump' }),
    jumpToPin: raise(({ event }) => {
      assertEvent(event, 'pins.jumpTo');
      return { type: 'conversation.jumpTo' as const, messageId: event.messageId };
    }),
    queueDeletion: sendTo('deletions', ({ event }) => {
      assertEvent(event, 'conversation.delete');
      return { type: 'queue.add' as const, request: { messageId: event.messageId } satisfies DeletionRequest };
    }),
    // Before `take`: the change is judged on the reactions shown until now.
    queueReaction: sendTo('reactions', ({ context, event }) => {
      assertEvent(event, 'conversation.react');
      const request: ReactionChange = {
        messageId: event.messageId,
        emoji: event.emoji,
        on: reactionOn(context, event.messageId, event.emoji),
      };
      return { type: 'queue.add' as const, request };
    }),
    refresh: raise({ type: 'conversation.refresh' }),
    // Each message with a link card has its child 'previewCard:<id>', told whenever the message's card changes
    // (message:preview, a refetched page after a reconnection, the sender's removal heard from the server).
    syncCards: enqueueActions(({ context, self, enqueue }) => {
      // The snapshot before this step; a graph traversal's pure transitions have no children.
      const children: Record<string, { getSnapshot(): { context: { preview: unknown } } } | undefined> =
        self.getSnapshot()?.children ?? {};
      for (const m of context.messages) {
        const id = previewCardId(m.id);
        const card = children[id];
        if (!card) {
          if (m.preview)
            enqueue.spawnChild('previewCard', {
              id,
              input: { messageId: m.id, preview: m.preview, mine: m.senderId === context.me },
            });
        } else if (!m.preview) enqueue.sendTo(id, { type: 'preview.removed' });
        else if (card.getSnapshot().context.preview !== m.preview && m.preview.status !== 'pending')
          enqueue.sendTo(id, { type: 'preview.arrived', preview: m.preview });
      }
    }),
    focusMessage: assign({
      focusedId: ({ event }) => {
        assertEvent(event, 'conversation.focusMessage');
        return event.messageId;
      },
    }),
    // The next focused message among the rows as drawn; one no longer drawn counts as below the newest.
    moveFocus: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'conversation.moveFocus');
      const target = focusTarget(event.ids, context.focusedId, event.move);
      enqueue.assign({ focusedId: target });
      enqueue.emit({ type: 'conversation.focusMoved', messageId: target });
    }),
    placeDivider: assign(({ context }) =>
      context.unreadAtOpen > 0
        ? { unreadFrom: firstUnread(context.messages, context.me, context.unreadAtOpen), unreadAtOpen: 0 }
        : {},
    ),
  },
}).createMachine({
  id: 'conversation',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    me: input.userId,
    messages: [],
    hasMore: false,
    firstItemIndex: FIRST_ITEM_INDEX,
    seekId: input.jumpTo ?? null,
    unreadAtOpen: input.unread ?? 0,
    unreadFrom: null,
    focusedId: null,
  }),
  invoke: [
    { id: 'serverEvents', src: 'serverEvents' },
    { id: 'room', src: 'room', input: ({ context }) => ({ conversationId: context.conversationId }) },
    {
      id: 'composerReports',
      src: 'composerReports',
      input: ({ context }) => ({ conversationId: context.conversationId }),
    },
    {
      id: 'typing',
      systemId: 'typing',
      src: 'typing',
      input: ({ context }) => ({ conversationId: context.conversationId, userId: context.me }),
    },
    { id: 'readReceipts', src: 'readReceipts', input: ({ context }) => ({ conversationId: context.conversationId }) },
    { id: 'messageEdit', src: 'messageEdit' },
    // Own deletions and reaction changes, each sent one at a time in order (the wiring gives each its request).
    { id: 'deletions', src: 'deletions', input: { name: 'deletions', failed: DELETE_FAILED } },
    { id: 'reactions', src: 'reactions', input: { name: 'reactions', failed: REACT_FAILED } },
    { id: 'pins', src: 'pins', input: ({ context }) => ({ conversationId: context.conversationId }) },
  ],
  on: {
    'conversation.messageArrived': { guard: 'here', actions: ['take', 'syncCards', 'stopRemoteTyping'] },
    'conversation.messageSent': { guard: 'here', actions: ['take', 'syncCards'] },
    'conversation.preview': { guard: 'here', actions: ['take', 'syncCards'] },
    'conversation.messageDeleted': { guard: 'here', actions: ['take', 'unpin'] },
    'conversation.receipts': { guard: 'here', actions: 'take' },
    'conversation.messageEdited': { guard: 'here', actions: 'take' },
    'conversation.reactions': { guard: 'here', actions: 'take' },
    'conversation.thread': { guard: 'here', actions: 'take' },
    'conversation.poll': { guard: 'here', actions: 'take' },
    'conversation.messagesHidden': { guard: 'here', actions: ['take', 'refetchShown'] },
    'conversation.pins': { guard: 'here', actions: 'forwardPins' },
    'edit.saved': { actions: 'take' },
    'conversation.ownSent': { actions: 'toBottom' },
    'conversation.openImage': { actions: 'openImage' },
    'conversation.closeImage': { actions: 'closeImage' },
    'conversation.focusMessage': { actions: 'focusMessage' },
    'conversation.moveFocus': { guard: 'hasRows', actions: 'moveFocus' },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'latest',
        src: 'fetchPage',
        input: ({ context }) => pageOf(context, LIMITS.messagesPageDefault),
        onDone: [
          // More unread than the first page holds: page back to the first unread before showing the history.
          {
            guard: { type: 'unreadBeyond', params: ({ event }) => event.output },
            target: 'reachingUnread',
            actions: { type: 'takeLatest', params: ({ event }) => event.output },
          },
          {
            target: 'ready',
            actions: [{ type: 'takeLatest', params: ({ event }) => event.output }, 'placeDivider', 'syncCards'],
          },
        ],
        onError: 'failed',
      },
    },
    reachingUnread: {
      tags: ['loading'],
      on: { 'pageBack.page': { actions: 'takePageBack' } },
      invoke: {
        id: 'pageBack',
        src: 'pageBack',
        input: ({ context }) => ({
          conversationId: context.conversationId,
          before: context.messages[0]?.id,
          goal: { unread: context.unreadAtOpen, me: context.me },
        }),
        // Reached, or what is loaded is shown: the divider sits on the oldest unread among it.
        onDone: { target: 'ready', actions: ['placeDivider', 'syncCards'] },
      },
    },
    failed: {
      tags: ['failed'],
      on: { 'conversation.retry': 'loading', 'conversation.reconnected': 'loading' },
    },
    ready: {
      type: 'parallel',
      on: {
        'conversation.delete': { guard: 'ownShown', actions: ['take', 'unpin', 'queueDeletion'] },
        'conversation.react': { guard: 'shownMessage', actions: ['queueReaction', 'take'] },
        'conversation.pin': { actions: 'forwardPin' },
        'conversation.pinJump': { actions: 'pinJump' },
        'pins.jumpTo': { actions: 'jumpToPin' },
        'queue.done': { guard: 'fromReactions', actions: 'take' },
        // Refused or lost: the page as the server has it puts the reactions right.
        'queue.failed': { guard: 'fromReactions', actions: 'refresh' },
      },
      states: {
        history: {
          initial: 'opening',
          states: {
            /** Opened at a message (a search result): highlight it, or page back to it as a jump to a quote does. */
            opening: {
              always: [
                { guard: 'openedAtLoaded', target: 'idle', actions: 'highlightFound' },
                { guard: 'openedAtOlder', target: 'seeking' },
                { target: 'idle' },
              ],
            },
            idle: {
              on: {
                'conversation.loadOlder': { guard: 'canLoadOlder', target: 'loadingOlder' },
                'conversation.jumpTo': [
                  { guard: 'isLoaded', actions: 'highlightJump' },
                  { guard: 'canLoadOlder', target: 'seeking', actions: 'seek' },
                ],
              },
            },
            loadingOlder: {
              tags: ['loadingOlder'],
              // A jump while a page loads: look for the quote instead (from the same first message).
              on: {
                'conversation.jumpTo': [
                  { guard: 'isLoaded', target: 'idle', actions: 'highlightJump' },
                  { target: 'seeking', actions: 'seek' },
                ],
              },
              invoke: {
                id: 'older',
                src: 'fetchPage',
                input: ({ context }) => pageOf(context, LIMITS.messagesPageDefault, true),
                onDone: {
                  target: 'idle',
                  actions: [{ type: 'takeOlder', params: ({ event }) => event.output }, 'syncCards'],
                },
                onError: 'idle',
              },
            },
            seeking: {
              tags: ['loadingOlder'],
              on: {
                'conversation.jumpTo': [
                  { guard: 'isLoaded', target: 'idle', actions: ['stopSeeking', 'highlightJump'] },
                  // Another quote: the paging goes on, for it now.
                  { actions: ['seek', 'retarget'] },
                ],
                'pageBack.page': { actions: ['takePageBack', 'syncCards'] },
              },
              invoke: {
                id: 'pageBack',
                src: 'pageBack',
                input: ({ context }) => ({
                  conversationId: context.conversationId,
                  before: context.messages[0]?.id,
                  goal: { messageId: context.seekId ?? '' },
                }),
                onDone: [
                  {
                    guard: { type: 'found', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: 'highlightFound',
                  },
                  { target: 'idle', actions: 'stopSeeking' },
                ],
              },
            },
          },
        },
        sync: {
          initial: 'idle',
          states: {
            idle: {
              on: { 'conversation.refresh': 'refreshing', 'conversation.reconnected': 'refreshing' },
            },
            refreshing: {
              invoke: {
                id: 'refresh',
                src: 'fetchPage',
                input: ({ context }) => pageOf(context, LIMITS.messagesPageDefault),
                onDone: {
                  target: 'idle',
                  actions: [{ type: 'takeLatest', params: ({ event }) => event.output }, 'syncCards'],
                },
                onError: 'idle',
              },
              on: { 'conversation.refresh': { target: 'refreshing', reenter: true } },
            },
          },
        },
      },
    },
  },
});

export type ConversationActorRef = import('xstate').ActorRefFrom<typeof conversationMachine>;
