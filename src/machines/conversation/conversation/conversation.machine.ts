// The open conversation (docs/behaviour.md §2, §4; the chats actor's child 'conversation', its code loaded on demand).
// History: the latest page first, older pages on demand (`?before=&limit=`, hasMore), each message once
// whether it came from the socket (message:new and message:notify alike), the send answer or a page.
// Deleted messages leave the list; receipts:update adds read marks. A jump to a quoted message highlights it,
// loading older pages until it is found. After a reconnection the latest page is fetched again, so nothing
// sent during the gap is missed. While alive it is in the conversation's socket room (join on start and on
// every reconnection, leave when stopped) and runs the typing, read-receipt and edit actors of this conversation.
// Edits (message:edited, or the answer to an own edit) change the message and its quotes; reactions are shown at
// once and sent one after another by the child queue 'reactions' (reactions:update from the server is the truth;
// a failure refetches the page); own deletions leave the list at once and go to the server one after another by
// the child queue 'deletions' (a failure is ignored: the message returns with the next refresh).
// The unread count the conversation was opened with places «Непрочитанные сообщения» once the first page is in.
// What only makes the view move (a jump's scroll and flash, going to the bottom after an own send, the open image)
// is emitted, not kept: the view hooks listen (conversation.protocol.ts, ConversationEmitted).
import { assertEvent, assign, emit, enqueueActions, fromCallback, raise, sendTo, setup } from 'xstate';
import { composerReports } from './composer-reports';
import type { ResponseOf } from '../../../contract/api';
import type { Message } from '../../../contract/entities';
import { LIMITS, REACTION_EMOJI, UNREAD_REACH } from '../../../contract/limits';
import { messageEditMachine } from '../messageEdit/messageEdit.machine';
import { notWired } from '../../shared/not-wired';
import { listenToServer } from '../../realtime/realtime/listen-to-server';
import { requestQueueMachine } from '../../realtime/requestQueue/requestQueue.machine';
import { readReceiptsMachine } from '../readReceipts/readReceipts.machine';
import { systemActor } from '../../shared/system';
import { typingMachine } from '../typing/typing.machine';
import type {
  ConversationContext,
  ConversationEmitted,
  ConversationEvent,
  ConversationInput,
  DeletionRequest,
  PageInput,
  PinChange,
  ReactionChange,
} from './conversation.protocol';
import {
  addReceipts,
  applyEdit,
  FIRST_ITEM_INDEX,
  countUnreadable,
  firstUnread,
  hasReacted,
  mergeMessages,
  prependPage,
  removeMessage,
  removeMessages,
  setReactions,
  toggleReaction,
} from './history';

export * from './conversation.protocol';

type Page = ResponseOf<'messages'>;
type Pins = ResponseOf<'pins'>;

/** Fallbacks of the request queues' failures (not shown today: a failed deletion is ignored, a reaction refetched). */
const DELETE_FAILED = 'Не удалось удалить сообщение';
const REACT_FAILED = 'Не удалось изменить реакцию';
const PIN_FAILED = 'Не удалось закрепить сообщение';

export const conversationServerEvents = listenToServer<ConversationEvent>(
  {
    'message:new': (p) => ({ type: 'conversation.messageArrived', message: p.message }),
    'message:notify': (p) => ({ type: 'conversation.messageArrived', message: p.message }),
    'message:deleted': (p) => ({
      type: 'conversation.messageDeleted',
      conversationId: p.conversationId,
      messageId: p.messageId,
    }),
    'message:edited': (p) => ({
      type: 'conversation.messageEdited',
      conversationId: p.conversationId,
      messageId: p.messageId,
      content: p.content,
      editedAt: p.editedAt,
      ...(p.mentions ? { mentions: p.mentions } : {}),
    }),
    'message:hidden': (p) => ({
      type: 'conversation.messagesHidden',
      conversationId: p.conversationId,
      messageIds: p.messageIds,
      hidden: p.hidden,
    }),
    'conversation:pins': (p) => ({ type: 'conversation.pins', conversationId: p.conversationId, pins: p.pins }),
    'reactions:update': (p) => ({
      type: 'conversation.reactions',
      conversationId: p.conversationId,
      messageId: p.messageId,
      reactions: p.reactions,
    }),
    'receipts:update': (p) => ({
      type: 'conversation.receipts',
      conversationId: p.conversationId,
      userId: p.userId,
      messageIds: p.messageIds,
    }),
  },
  { onConnected: () => ({ type: 'conversation.reconnected' }) },
);

/**
 * Membership of the conversation's socket room while this actor lives: join now and after every
 * reconnection (the server forgets rooms with the socket), leave when stopped.
 */
export const conversationRoom = fromCallback<{ type: string }, { conversationId: string }>(({ input, system }) => {
  const realtime = systemActor(system, 'realtime');
  if (!realtime) return;
  const payload = { conversationId: input.conversationId };
  const join = () => realtime.send({ type: 'realtime.emit', name: 'conversation:join', payload });
  join();
  const sub = realtime.on('realtime.connected', join);
  return () => {
    sub.unsubscribe();
    realtime.send({ type: 'realtime.emit', name: 'conversation:leave', payload });
  };
});

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
      pinning: 'pinning';
      pins: 'fetchPins';
    },
  },
  actors: {
    serverEvents: conversationServerEvents,
    room: conversationRoom,
    /** The composer's deliveries and sends (its emitted events), heard directly. */
    composerReports,
    fetchPage: notWired<ResponseOf<'messages'>, PageInput>('conversation.fetchPage'),
    /** GET /api/conversations/:id/pins. */
    fetchPins: notWired<Pins, { conversationId: string }>('conversation.fetchPins'),
    deletions: requestQueueMachine,
    reactions: requestQueueMachine,
    pinning: requestQueueMachine,
    typing: typingMachine,
    readReceipts: readReceiptsMachine,
    messageEdit: messageEditMachine,
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
    foundInPage: ({ context }, page: Page) => page.messages.some((m) => m.id === context.seekId),
    morePages: (_, page: Page) => page.hasMore && page.messages.length > 0,
    /**
     * With this page in, fewer unread messages are loaded than the conversation was opened with, the server has
     * older ones, and fewer than UNREAD_REACH messages are loaded (beyond that the divider sits on the oldest).
     */
    unreadBeyond: ({ context }, page: Page) => {
      if (context.unreadAtOpen <= 0 || !page.hasMore || page.messages.length === 0) return false;
      const ids = new Set(context.messages.map((m) => m.id));
      const all = [...page.messages.filter((m) => !ids.has(m.id)), ...context.messages];
      return all.length < UNREAD_REACH && countUnreadable(all, context.me) < context.unreadAtOpen;
    },
    /** A report of the reactions queue (the deletions queue's are not acted on). */
    fromReactions: ({ event }) => 'queue' in event && event.queue === 'reactions',
    fromPinning: ({ event }) => 'queue' in event && event.queue === 'pinning',
    hasPins: ({ context }) => context.pins.length > 0,
    shownToPin: ({ context, event }) => {
      assertEvent(event, 'conversation.pin');
      return (
        context.messages.some((m) => m.id === event.messageId) || context.pins.some((m) => m.id === event.messageId)
      );
    },
    /** Reactions go to messages the server has and that are shown. */
    shownMessage: ({ context, event }) => {
      assertEvent(event, 'conversation.react');
      return context.messages.some((m) => m.id === event.messageId);
    },
    /** Only the sender deletes, and only what is shown. */
    ownShown: ({ context, event }) => {
      assertEvent(event, 'conversation.delete');
      return context.messages.some((m) => m.id === event.messageId && m.senderId === context.me);
    },
  },
  actions: {
    takeMessage: assign({
      messages: ({ context, event }) => {
        assertEvent(event, ['conversation.messageArrived', 'conversation.messageSent']);
        return mergeMessages(context.messages, [event.message]);
      },
    }),
    // Someone who sends has stopped typing.
    stopRemoteTyping: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'conversation.messageArrived');
      if (event.message.senderId !== context.me) {
        enqueue.sendTo('typing', { type: 'typing.remoteSent', userId: event.message.senderId });
      }
    }),
    takeLatest: assign(({ context }, page: Page) => {
      const last = context.messages.at(-1);
      // A gap longer than a page (a long disconnection): start again from the latest page.
      const gap =
        page.hasMore && last !== undefined && page.messages.length > 0 && page.messages[0].createdAt > last.createdAt;
      if (gap) return { messages: mergeMessages([], page.messages), hasMore: true };
      return {
        messages: mergeMessages(context.messages, page.messages),
        hasMore: context.messages.length === 0 ? page.hasMore : context.hasMore || page.hasMore,
      };
    }),
    takeOlder: assign(({ context }, page: Page) => {
      const { messages, added } = prependPage(context.messages, page.messages);
      return { messages, hasMore: page.hasMore, firstItemIndex: context.firstItemIndex - added };
    }),
    seek: assign({
      seekId: ({ event }) => {
        assertEvent(event, 'conversation.jumpTo');
        return event.messageId;
      },
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
    toBottom: emit({ type: 'conversation.toBottom' }),
    openImage: emit(({ event }) => {
      assertEvent(event, 'conversation.openImage');
      return { type: 'conversation.imageOpened' as const, messageId: event.messageId, index: event.index };
    }),
    closeImage: emit({ type: 'conversation.imageClosed' }),
    stopSeeking: assign({ seekId: null }),
    removeDeleted: assign(({ context, event }) => {
      assertEvent(event, ['conversation.messageDeleted', 'conversation.delete']);
      const pins = context.pins.filter((m) => m.id !== event.messageId);
      return {
        messages: removeMessage(context.messages, event.messageId),
        ...(pins.length !== context.pins.length ? { pins, pinCursor: 0 } : {}),
      };
    }),
    takeHidden: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'conversation.messagesHidden');
      // Shown again (undone on another device): the page as the server has it brings them back.
      if (!event.hidden) enqueue.raise({ type: 'conversation.refresh' });
      else enqueue.assign({ messages: removeMessages(context.messages, event.messageIds) });
    }),
    takePins: assign(({ context }, pins: Message[]) => ({
      pins,
      pinCursor: pins.length && context.pinCursor < pins.length ? context.pinCursor : 0,
    })),
    queuePin: sendTo('pinning', ({ event }) => {
      assertEvent(event, 'conversation.pin');
      return { type: 'queue.add' as const, request: { messageId: event.messageId, on: event.on } satisfies PinChange };
    }),
    pinned: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'queue.done');
      if (event.queue === 'pinning') enqueue.assign({ pins: event.output.pins, pinCursor: 0 });
    }),
    // The bar shows the pin a click goes to; then the next older one, and round to the newest.
    jumpToPin: enqueueActions(({ context, enqueue }) => {
      const pin = context.pins[context.pinCursor];
      if (!pin) return;
      enqueue.raise({ type: 'conversation.jumpTo', messageId: pin.id });
      enqueue.assign({ pinCursor: (context.pinCursor + 1) % context.pins.length });
    }),
    queueDeletion: sendTo('deletions', ({ event }) => {
      assertEvent(event, 'conversation.delete');
      return { type: 'queue.add' as const, request: { messageId: event.messageId } satisfies DeletionRequest };
    }),
    takeEdit: assign({
      messages: ({ context, event }) => {
        assertEvent(event, ['conversation.messageEdited', 'edit.saved']);
        if (event.type === 'edit.saved') {
          const m = event.message;
          return m.editedAt
            ? applyEdit(context.messages, m.id, m.content, m.editedAt, m.mentions ?? [])
            : context.messages;
        }
        return applyEdit(context.messages, event.messageId, event.content, event.editedAt, event.mentions ?? []);
      },
    }),
    takeReactions: assign({
      messages: ({ context, event }) => {
        assertEvent(event, 'conversation.reactions');
        return setReactions(context.messages, event.messageId, event.reactions);
      },
    }),
    // Shown at once and queued; the server's answer (or reactions:update) replaces it.
    toggleReaction: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'conversation.react');
      const message = context.messages.find((m) => m.id === event.messageId);
      const on = !hasReacted(message, context.me, event.emoji);
      const reactions = toggleReaction(message?.reactions ?? [], context.me, event.emoji, on, REACTION_EMOJI);
      enqueue.assign({ messages: setReactions(context.messages, event.messageId, reactions) });
      const change: ReactionChange = { messageId: event.messageId, emoji: event.emoji, on };
      enqueue.sendTo('reactions', { type: 'queue.add', request: change });
    }),
    // The server's reactions, unless a later change of the same message is still queued (it answers last).
    reacted: assign(({ context, event }) => {
      assertEvent(event, 'queue.done');
      if (event.queue !== 'reactions') return {};
      const { request, output, remaining } = event;
      if (remaining.some((c) => c.messageId === request.messageId)) return {};
      return { messages: setReactions(context.messages, request.messageId, output.reactions) };
    }),
    refresh: raise({ type: 'conversation.refresh' }),
    placeDivider: assign(({ context }) =>
      context.unreadAtOpen > 0
        ? { unreadFrom: firstUnread(context.messages, context.me, context.unreadAtOpen), unreadAtOpen: 0 }
        : {},
    ),
    addReceipts: assign({
      messages: ({ context, event }) => {
        assertEvent(event, 'conversation.receipts');
        return addReceipts(context.messages, event.userId, event.messageIds);
      },
    }),
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
    pins: [],
    pinCursor: 0,
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
    {
      id: 'readReceipts',
      src: 'readReceipts',
      input: ({ context }) => ({ conversationId: context.conversationId }),
    },
    { id: 'messageEdit', src: 'messageEdit' },
    // Own deletions and reaction changes, each sent one at a time in order (the wiring gives each its request).
    { id: 'deletions', src: 'deletions', input: { name: 'deletions', failed: DELETE_FAILED } },
    { id: 'reactions', src: 'reactions', input: { name: 'reactions', failed: REACT_FAILED } },
    { id: 'pinning', src: 'pinning', input: { name: 'pinning', failed: PIN_FAILED } },
    // The pinned messages once at the start; conversation:pins keeps them current.
    {
      id: 'pins',
      src: 'fetchPins',
      input: ({ context }) => ({ conversationId: context.conversationId }),
      onDone: { actions: { type: 'takePins', params: ({ event }) => event.output.pins } },
      // Offline: no bar until conversation:pins says otherwise (the history still opens).
      onError: {},
    },
  ],
  on: {
    'conversation.messageArrived': { guard: 'here', actions: ['takeMessage', 'stopRemoteTyping'] },
    'conversation.messageSent': { guard: 'here', actions: 'takeMessage' },
    'conversation.messageDeleted': { guard: 'here', actions: 'removeDeleted' },
    'conversation.receipts': { guard: 'here', actions: 'addReceipts' },
    'conversation.messageEdited': { guard: 'here', actions: 'takeEdit' },
    'conversation.reactions': { guard: 'here', actions: 'takeReactions' },
    'conversation.messagesHidden': { guard: 'here', actions: 'takeHidden' },
    'conversation.pins': {
      guard: 'here',
      actions: { type: 'takePins', params: ({ event }) => (event as { pins: Message[] }).pins },
    },
    'edit.saved': { actions: 'takeEdit' },
    'conversation.ownSent': { actions: 'toBottom' },
    'conversation.openImage': { actions: 'openImage' },
    'conversation.closeImage': { actions: 'closeImage' },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'latest',
        src: 'fetchPage',
        input: ({ context }) => ({ conversationId: context.conversationId, limit: LIMITS.messagesPageDefault }),
        onDone: [
          // More unread than the first page holds: page back to the first unread before showing the history.
          {
            guard: { type: 'unreadBeyond', params: ({ event }) => event.output },
            target: 'reachingUnread',
            actions: { type: 'takeLatest', params: ({ event }) => event.output },
          },
          {
            target: 'ready',
            actions: [{ type: 'takeLatest', params: ({ event }) => event.output }, 'placeDivider'],
          },
        ],
        onError: 'failed',
      },
    },
    reachingUnread: {
      tags: ['loading'],
      invoke: {
        id: 'toUnread',
        src: 'fetchPage',
        input: ({ context }) => ({
          conversationId: context.conversationId,
          before: context.messages[0]?.id,
          limit: LIMITS.messagesPageMax,
        }),
        onDone: [
          {
            guard: { type: 'unreadBeyond', params: ({ event }) => event.output },
            target: 'reachingUnread',
            reenter: true,
            actions: { type: 'takeOlder', params: ({ event }) => event.output },
          },
          {
            target: 'ready',
            actions: [{ type: 'takeOlder', params: ({ event }) => event.output }, 'placeDivider'],
          },
        ],
        // What is loaded is shown; the divider sits on the oldest unread among it.
        onError: { target: 'ready', actions: 'placeDivider' },
      },
    },
    failed: {
      tags: ['failed'],
      on: { 'conversation.retry': 'loading', 'conversation.reconnected': 'loading' },
    },
    ready: {
      type: 'parallel',
      on: {
        'conversation.delete': { guard: 'ownShown', actions: ['removeDeleted', 'queueDeletion'] },
        'conversation.react': { guard: 'shownMessage', actions: 'toggleReaction' },
        'conversation.pin': { guard: 'shownToPin', actions: 'queuePin' },
        'conversation.pinJump': { guard: 'hasPins', actions: 'jumpToPin' },
        'queue.done': [
          { guard: 'fromReactions', actions: 'reacted' },
          { guard: 'fromPinning', actions: 'pinned' },
        ],
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
                input: ({ context }) => ({
                  conversationId: context.conversationId,
                  before: context.messages[0]?.id,
                  limit: LIMITS.messagesPageDefault,
                }),
                onDone: { target: 'idle', actions: { type: 'takeOlder', params: ({ event }) => event.output } },
                onError: 'idle',
              },
            },
            seeking: {
              tags: ['loadingOlder'],
              on: {
                'conversation.jumpTo': [
                  { guard: 'isLoaded', target: 'idle', actions: ['stopSeeking', 'highlightJump'] },
                  { target: 'seeking', actions: 'seek' },
                ],
              },
              invoke: {
                id: 'seek',
                src: 'fetchPage',
                // Larger pages: the quote may be far back.
                input: ({ context }) => ({
                  conversationId: context.conversationId,
                  before: context.messages[0]?.id,
                  limit: LIMITS.messagesPageMax,
                }),
                onDone: [
                  {
                    guard: { type: 'foundInPage', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: [{ type: 'takeOlder', params: ({ event }) => event.output }, 'highlightFound'],
                  },
                  {
                    guard: { type: 'morePages', params: ({ event }) => event.output },
                    target: 'seeking',
                    reenter: true,
                    actions: { type: 'takeOlder', params: ({ event }) => event.output },
                  },
                  {
                    target: 'idle',
                    actions: [{ type: 'takeOlder', params: ({ event }) => event.output }, 'stopSeeking'],
                  },
                ],
                onError: { target: 'idle', actions: 'stopSeeking' },
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
                input: ({ context }) => ({ conversationId: context.conversationId, limit: LIMITS.messagesPageDefault }),
                onDone: { target: 'idle', actions: { type: 'takeLatest', params: ({ event }) => event.output } },
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
