// The chats page's long-lived actor (docs/behaviour.md §2, §4; systemId 'chats', spawned by the app actor).
// It holds the conversation list (fetched at start, every 20 s, after a reconnection and on demand, kept current
// by socket events and the composer's deliveries) and the selection (`chats.open`, from other features too) with
// its unread reset. A message from someone else that arrives while its conversation is not in front of the user
// (not open, another page, hidden tab) counts as unread and is emitted as `chats.unread` (the notifications actor
// decides about sound and notification). Every selection is emitted as `chats.selected` (the address and the
// composer follow it). The selected conversation's code and actor are its child 'loader' (../conversationLoader).
import { assertEvent, assign, enqueueActions, raise, sendTo, setup, spawnChild } from 'xstate';
import { TIMINGS } from '../../../contract/limits';
import { watchSignedInUser } from '../../session/index';
import { notWired } from '../../shared/not-wired';
import { present } from '../../shared/present';
import { systemActor } from '../../shared/system';
import { watchPageVisibility } from '../../shared/watchers';
import { conversationLoaderMachine } from '../conversationLoader/conversationLoader.machine';
import {
  type ChatsContext,
  type ChatsEffects,
  type ChatsEmitted,
  type ChatsEvent,
  initialChatsContext,
  type ListAnswer,
  type ListChangeEvent,
} from './chats.protocol';
import { chatsServerEvents, composerDeliveries } from './chats-server-events';
import {
  findEntry,
  isMutedEntry,
  type ListChange,
  listAfter,
  reselection,
  secretChatIds,
  secretChatsChange,
  secretOf,
  sortEntries,
  withArrivals,
  withMessage,
  withUnread,
} from './conversation-list';

export * from './chats.protocol';
export { chatsServerEvents } from './chats-server-events';

const RECENT_IDS = 64;
/** In-place changes kept to replay over a fetch's answer: far more than arrive while one fetch is out. */
const CHANGES_KEPT = 256;

export const chatsMachine = setup({
  types: {
    context: {} as ChatsContext,
    events: {} as ChatsEvent,
    emitted: {} as ChatsEmitted,
    children: {} as { loader: 'conversationLoader' },
  },
  actors: {
    session: watchSignedInUser('chats.signedIn', 'chats.signedOut'),
    pageVisibility: watchPageVisibility('chats.visibility'),
    serverEvents: chatsServerEvents,
    /** The composer's deliveries (its emitted `composer.delivered`): own messages the server has. */
    deliveries: composerDeliveries,
    fetchConversations: notWired('chats.fetchConversations') as ChatsEffects['fetchConversations'],
    markRead: notWired('chats.markRead') as ChatsEffects['markRead'],
    /** The selected conversation's code and actor (its `loadOwned` is provided with the registry line). */
    conversationLoader: conversationLoaderMachine,
  },
  delays: { conversationsRefetch: TIMINGS.conversationsRefetchMs },
  guards: {
    seenAlready: ({ context, event }) => {
      assertEvent(event, 'chats.messageArrived');
      return context.recentIds.includes(event.message.id);
    },
    /** From someone else, and its conversation is not in front of the user (not open, another page, hidden tab). */
    unnoticed: ({ context, event }) => {
      assertEvent(event, 'chats.messageArrived');
      const m = event.message;
      const inFront = context.selectedId === m.conversationId && context.pageVisible && context.viewing;
      // A group's SYSTEM entries order the list but are no news.
      return m.senderId !== context.me && m.type !== 'SYSTEM' && !inFront;
    },
    removedOpen: ({ context, event }) => {
      assertEvent(event, 'chats.conversationRemoved');
      return context.selectedId === event.conversationId;
    },
    ownReceipts: ({ context, event }) => {
      assertEvent(event, 'chats.receipts');
      return event.userId === context.me;
    },
    latestDeleted: ({ context, event }) => {
      assertEvent(event, 'chats.messageDeleted');
      return findEntry(context.entries, event.conversationId)?.conversation.messages[0]?.id === event.messageId;
    },
    sameConversation: ({ context, event }) => {
      assertEvent(event, 'chats.open');
      return context.selectedId === event.conversationId && !event.again;
    },
    hasSelection: ({ context }) => context.selectedId !== null,
    /** The open conversation again, marked «непрочитанное» meanwhile: opening it takes the mark off. */
    sameMarked: ({ context, event }) => {
      assertEvent(event, 'chats.open');
      return (
        context.selectedId === event.conversationId &&
        !event.again &&
        context.entries.some((e) => e.conversation.id === event.conversationId && e.settings?.markedUnread === true)
      );
    },
  },
  actions: {
    // What the page shows and whether the tab is visible outlive the session; the rest goes with it.
    reset: assign(({ context }) => ({
      ...initialChatsContext(),
      pageVisible: context.pageVisible,
      viewing: context.viewing,
    })),
    rememberUser: assign(({ event }) => {
      assertEvent(event, 'chats.signedIn');
      return { me: event.userId };
    }),
    setVisibility: assign(({ event }) => {
      assertEvent(event, 'chats.visibility');
      return { pageVisible: event.visible };
    }),
    setViewing: assign(({ event }) => {
      assertEvent(event, 'chats.viewing');
      return { viewing: event.viewing };
    }),
    takeList: enqueueActions(({ context, system, enqueue }, { conversations, saved }: ListAnswer) => {
      const entries = context.changesSinceFetch.reduce(
        (list, change) => listAfter(list, change as ListChange),
        withArrivals(sortEntries(conversations), context.sinceFetch),
      );
      const offline = systemActor(system, 'offlineStore');
      if (offline) enqueue.sendTo(offline, { type: 'offline.listFetched', reachable: saved !== true });
      // The open conversation on screen is being read: its badge stays at zero.
      const next = context.selectedId && context.viewing ? withUnread(entries, context.selectedId, () => 0) : entries;
      enqueue.assign({ loaded: true, entries: next });
      // The composer's outbox marks what waits for a secret chat (an item kept from before the items said so).
      enqueue.emit({ type: 'chats.secretChats', conversationIds: secretChatIds(next) });
      const again = reselection(
        context.selectedId,
        secretOf(context.selectedId, context.entries, context.loaded),
        secretOf(context.selectedId, next, true),
      );
      if (again) enqueue.emit(again);
    }),
    takeMessage: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ['chats.messageArrived', 'composer.delivered']);
      const m = event.message;
      enqueue.assign({
        recentIds: [...context.recentIds.slice(1 - RECENT_IDS), m.id],
        sinceFetch: [...context.sinceFetch.slice(1 - RECENT_IDS), { message: m, unread: false, mentioned: false }],
      });
      if (findEntry(context.entries, m.conversationId)) enqueue.assign({ entries: withMessage(context.entries, m, 0) });
      else enqueue(raise({ type: 'chats.refresh' })); // a conversation this list does not know yet
    }),
    countUnread: assign(({ context, event }) => {
      assertEvent(event, 'chats.messageArrived');
      const mentioned = context.me !== null && (event.message.mentions ?? []).includes(context.me);
      // takeMessage noted it last; it counted.
      const noted = context.sinceFetch.map((a) =>
        a.message.id === event.message.id ? { ...a, unread: true, mentioned } : a,
      );
      return {
        entries: withUnread(context.entries, event.message.conversationId, (n) => n + 1, mentioned),
        sinceFetch: noted,
      };
    }),
    /** A fetch begins: what it will answer covers what came before it. */
    forgetArrivals: assign({ sinceFetch: [], changesSinceFetch: [] }),
    /**
     * The message counted as unread: whoever cares (the notifications actor) hears it with its conversation, unless
     * the user muted it («Без звука»: no sound, no notification) and it does not mention them (a mention always does).
     */
    announceUnread: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'chats.messageArrived');
      const entry = findEntry(context.entries, event.message.conversationId);
      const mentioned = context.me !== null && (event.message.mentions ?? []).includes(context.me);
      if (isMutedEntry(entry, Date.now()) && !mentioned) return;
      const conversation = entry?.conversation ?? null;
      enqueue.emit({ type: 'chats.unread', message: event.message, conversation });
    }),
    readOwn: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'chats.receipts');
        return withUnread(context.entries, event.conversationId, (n) => n - event.messageIds.length);
      },
    }),
    refresh: raise({ type: 'chats.refresh' }),
    /** A server event that changes the list in place (conversation-list.ts `listAfter`). */
    changeList: enqueueActions(({ context, event, enqueue }) => {
      const entries = listAfter(context.entries, event as ListChange);
      enqueue.assign({
        entries,
        changesSinceFetch: [...context.changesSinceFetch.slice(1 - CHANGES_KEPT), event as ListChangeEvent],
      });
      const secretChats = secretChatsChange(context.entries, entries);
      if (secretChats) enqueue.emit(secretChats);
      const again = reselection(
        context.selectedId,
        secretOf(context.selectedId, context.entries, context.loaded),
        secretOf(context.selectedId, entries, context.loaded),
      );
      if (again) enqueue.emit(again);
    }),
    select: assign(({ context, event }) => {
      assertEvent(event, 'chats.open');
      return {
        selectedId: event.conversationId,
        openedUnread: findEntry(context.entries, event.conversationId)?.unreadCount ?? 0,
        openAt: event.messageId ?? null,
        entries: withUnread(context.entries, event.conversationId, () => 0),
      };
    }),
    unselect: assign({ selectedId: null, openAt: null }),
    // Every opening (the open one chosen again too) and closing: the navigation actor keeps the address in step,
    // the composer turns to the conversation (and knows whether it is secret).
    announceSelection: enqueueActions(({ context, event, enqueue }) => {
      const told = event.type === 'chats.open' && event.secret === true;
      const known = secretOf(context.selectedId, context.entries, context.loaded);
      enqueue.emit({ type: 'chats.selected', conversationId: context.selectedId, secret: told || known });
    }),
    openInLoader: sendTo('loader', ({ context }) => ({
      type: 'loader.open' as const,
      conversation: {
        conversationId: present(context.selectedId, 'selectedId'),
        userId: present(context.me, 'me'),
        unread: context.openedUnread,
        jumpTo: context.openAt,
      },
    })),
    /** The open conversation chosen again: with a search result, its actor jumps there (or starts there). */
    againInLoader: sendTo('loader', ({ event }) => {
      assertEvent(event, 'chats.open');
      return { type: 'loader.again' as const, ...(event.messageId ? { messageId: event.messageId } : {}) };
    }),
    closeInLoader: sendTo('loader', { type: 'loader.close' }),
    // The same request as opening sends (the server takes the mark off and tells every tab); a failure is ignored.
    markOpenRead: spawnChild('markRead', {
      input: ({ context }) => ({ conversationId: present(context.selectedId, 'selectedId') }),
    }),
    startCall: enqueueActions(({ context, event, system, enqueue }) => {
      assertEvent(event, 'chats.call');
      const call = systemActor(system, 'call');
      if (call && context.selectedId) {
        // A group's call is a room: starting it opens it for the group (docs/calls.md "Group calls").
        enqueue.sendTo(call, {
          type: 'call.startOutgoing',
          conversationId: context.selectedId,
          video: event.video,
          group: findEntry(context.entries, context.selectedId)?.conversation.isGroup ? 'start' : undefined,
        });
      }
    }),
  },
}).createMachine({
  id: 'chats',
  context: initialChatsContext,
  invoke: [
    { id: 'session', src: 'session' },
    { id: 'pageVisibility', src: 'pageVisibility' },
    // For the whole page: the conversation's code, once fetched, is kept across sign-outs.
    { id: 'loader', src: 'conversationLoader' },
  ],
  on: {
    'chats.visibility': { actions: 'setVisibility' },
    'chats.viewing': { actions: 'setViewing' },
  },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { 'chats.signedIn': { target: 'active', actions: 'rememberUser' } },
    },
    active: {
      invoke: [
        { id: 'serverEvents', src: 'serverEvents' },
        { id: 'deliveries', src: 'deliveries' },
      ],
      on: {
        'chats.signedOut': { target: 'signedOut', actions: 'reset' },
        'chats.messageArrived': [
          { guard: 'seenAlready' },
          { guard: 'unnoticed', actions: ['takeMessage', 'countUnread', 'announceUnread'] },
          { actions: 'takeMessage' },
        ],
        'composer.delivered': { actions: 'takeMessage' },
        'chats.receipts': { guard: 'ownReceipts', actions: 'readOwn' },
        'chats.messageDeleted': { guard: 'latestDeleted', actions: 'refresh' },
        'chats.messageEdited': { actions: 'changeList' },
        'chats.presence': { actions: 'changeList' },
        'chats.profile': { actions: 'changeList' },
        'chats.conversationAdded': { actions: 'changeList' },
        'chats.conversationUpdated': { actions: 'changeList' },
        'chats.conversationRemoved': { actions: 'changeList' },
        'chats.settings': { actions: 'changeList' },
        'chats.groupCall': { actions: 'changeList' },
        'chats.call': { guard: 'hasSelection', actions: 'startCall' },
      },
      type: 'parallel',
      states: {
        list: {
          initial: 'loading',
          states: {
            loading: {
              entry: 'forgetArrivals',
              invoke: {
                id: 'fetchConversations',
                src: 'fetchConversations',
                onDone: { target: 'idle', actions: { type: 'takeList', params: ({ event }) => event.output } },
                // Kept as it was; the next refetch tries again.
                onError: { target: 'idle' },
              },
              // A reconnection mid-fetch: the answer may predate what the socket missed meanwhile; ask again.
              on: {
                'chats.refresh': { target: 'loading', reenter: true },
                'chats.reconnected': { target: 'loading', reenter: true },
              },
            },
            idle: {
              after: { conversationsRefetch: 'loading' },
              on: { 'chats.refresh': 'loading', 'chats.reconnected': 'loading' },
            },
          },
        },
        selection: {
          initial: 'none',
          states: {
            none: {
              on: { 'chats.open': { target: 'open', actions: ['select', 'announceSelection'] } },
            },
            open: {
              entry: 'openInLoader',
              exit: 'closeInLoader',
              invoke: {
                // Opening resets the unread count; a failure changes nothing visible (docs/behaviour.md §8).
                id: 'markRead',
                src: 'markRead',
                input: ({ context }) => ({ conversationId: present(context.selectedId, 'selectedId') }),
                onError: {},
              },
              on: {
                'chats.open': [
                  { guard: 'sameMarked', actions: ['againInLoader', 'announceSelection', 'markOpenRead'] },
                  { guard: 'sameConversation', actions: ['againInLoader', 'announceSelection'] },
                  { target: 'open', reenter: true, actions: ['select', 'announceSelection'] },
                ],
                'chats.close': { target: 'none', actions: ['unselect', 'announceSelection'] },
                // The open conversation is gone for this user (left on another tab, removed): it closes.
                'chats.conversationRemoved': {
                  guard: 'removedOpen',
                  target: 'none',
                  actions: ['changeList', 'unselect', 'announceSelection'],
                },
              },
            },
          },
        },
      },
    },
  },
});

export type ChatsActorRef = import('xstate').ActorRefFrom<typeof chatsMachine>;
