// The chats page's long-lived actor (docs/behaviour.md §2, §4; systemId 'chats', spawned by the app actor).
// It holds the conversation list (fetched at start, every 20 s, after a reconnection and on demand, kept
// current by socket events: new messages, deletions, own read receipts, presence and profile changes, new
// conversations) and the selection (`chats.open`, also sent by the contacts feature) with its unread reset.
// A message from someone else that arrives while its conversation is not in front of the user (not open,
// another page, hidden tab) counts as unread, and the actor emits `chats.unread` with it: the notifications
// actor hears that and decides about the sound and the system notification. While signed in it runs the
// composer (one outbox per user) and, for the selected conversation, the conversation actor. The conversation's
// machines are not in the first bundle: fetched when a conversation is opened or about to be (`chats.prepare`: the
// list was touched, the service worker has them), then kept; a conversation opened before they are here waits for
// them ('waiting'), and a failed fetch is shown with a retry ('failed').
import { assertEvent, assign, enqueueActions, raise, sendTo, setup, stopChild } from 'xstate';
import { TIMINGS } from '../../../contract/limits';
import { composerMachine } from '../../composer/index';
import { newOutboxTag } from '../../composer/index';
import { notWired } from '../../shared/not-wired';
import { loadOwnedNotWired, type OwnedCode, spawnOwned } from '../../shared/owned-code';
import { listenToServer } from '../../realtime/realtime/listen-to-server';
import { watchSignedInUser } from '../../session/session/watch-signed-in-user';
import { systemActor } from '../../shared/system';
import { CHATS_TAGS, type ChatsContext, type ChatsEmitted, type ChatsEvent, type ListAnswer } from './chats.protocol';
import {
  findEntry,
  isMutedEntry,
  presenceChange,
  sortEntries,
  withEdit,
  withMessage,
  withSettings,
  withUnread,
  withUser,
} from './conversation-list';
import { present } from '../../shared/present';
import { watchPageVisibility } from '../../shared/watchers';

export * from './chats.protocol';

const RECENT_IDS = 64;

/** The protocol's context, and the open conversation's machines once fetched (kept across sign-outs). */
type Context = ChatsContext & { code: OwnedCode<'conversation'> | null };

const initialContext = (): Context => ({
  me: null,
  entries: [],
  selectedId: null,
  openAt: null,
  loaded: false,
  pageVisible: true,
  viewing: false,
  recentIds: [],
  openedUnread: 0,
  code: null,
});

export const chatsServerEvents = listenToServer<ChatsEvent>(
  {
    // A socket gets one of them per message (message:new once it joined the conversation, else message:notify);
    // a secret chat's edit or reaction (`control`) is no news: neither the preview nor an unread message.
    'message:new': (p) => (p.message.control ? null : { type: 'chats.messageArrived', message: p.message }),
    'message:notify': (p) => (p.message.control ? null : { type: 'chats.messageArrived', message: p.message }),
    'message:deleted': (p) => ({
      type: 'chats.messageDeleted',
      conversationId: p.conversationId,
      messageId: p.messageId,
    }),
    'message:edited': (p) => ({
      type: 'chats.messageEdited',
      conversationId: p.conversationId,
      messageId: p.messageId,
      content: p.content,
      editedAt: p.editedAt,
    }),
    'receipts:update': (p) => ({
      type: 'chats.receipts',
      conversationId: p.conversationId,
      userId: p.userId,
      messageIds: p.messageIds,
    }),
    'presence:update': (p) => ({
      type: 'chats.presence',
      userId: p.userId,
      status: p.status,
      lastSeenAt: p.lastSeenAt,
      at: new Date().toISOString(),
    }),
    'profile:update': (p) => ({
      type: 'chats.profile',
      userId: p.userId,
      avatarUrl: p.avatarUrl,
      displayName: p.displayName,
      // «Аккаунт отключён» in «Информация» (docs/behaviour.md §10.20).
      ...(p.deactivated !== undefined ? { deactivated: p.deactivated } : {}),
    }),
    'conversations:new': (p) => ({ type: 'chats.conversationAdded', conversation: p.conversation }),
    'conversation:updated': (p) => ({ type: 'chats.conversationUpdated', conversation: p.conversation }),
    'conversation:removed': (p) => ({ type: 'chats.conversationRemoved', conversationId: p.conversationId }),
    'conversation:settings': (p) => ({
      type: 'chats.settings',
      conversationId: p.conversationId,
      settings: p.settings,
    }),
  },
  { onConnected: () => ({ type: 'chats.reconnected' }) },
);

export const chatsMachine = setup({
  types: {
    context: {} as Context,
    events: {} as ChatsEvent,
    emitted: {} as ChatsEmitted,
    children: {} as { composer: 'composer' },
  },
  actors: {
    session: watchSignedInUser('chats.signedIn', 'chats.signedOut'),
    pageVisibility: watchPageVisibility('chats.visibility'),
    serverEvents: chatsServerEvents,
    /** The list from the server, or (no answer) the one the browser kept, marked `saved`. */
    fetchConversations: notWired<ListAnswer>('chats.fetchConversations'),
    markRead: notWired<unknown, { conversationId: string }>('chats.markRead'),
    /** The conversation's machines, wired (the registry line 'conversation'). */
    loadOwned: loadOwnedNotWired<'conversation'>('chats'),
    composer: composerMachine,
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
    codeHere: ({ context }) => context.code !== null,
    sentInOpen: ({ context, event }) => {
      assertEvent(event, 'composer.sent');
      return event.conversationId === context.selectedId;
    },
  },
  actions: {
    // What the page shows, whether the tab is visible and the code outlive the session; the rest goes with it.
    reset: assign(({ context }) => ({
      ...initialContext(),
      pageVisible: context.pageVisible,
      viewing: context.viewing,
      code: context.code,
    })),
    keepCode: assign({ code: (_, code: OwnedCode<'conversation'>) => code }),
    startConversation: enqueueActions(({ context, enqueue }) => {
      enqueue(
        spawnOwned(present(context.code, 'code').conversation, 'conversation', {
          conversationId: present(context.selectedId, 'selectedId'),
          userId: present(context.me, 'me'),
          unread: context.openedUnread,
          jumpTo: context.openAt,
        }),
      );
    }),
    stopConversation: stopChild('conversation'),
    /** A search result in the conversation whose actor is still to start: it starts there. */
    aimAt: assign({
      openAt: ({ context, event }) => {
        assertEvent(event, 'chats.open');
        return event.messageId ?? context.openAt;
      },
    }),
    rememberUser: assign({
      me: ({ event }) => {
        assertEvent(event, 'chats.signedIn');
        return event.userId;
      },
    }),
    setVisibility: assign({
      pageVisible: ({ event }) => {
        assertEvent(event, 'chats.visibility');
        return event.visible;
      },
    }),
    setViewing: assign({
      viewing: ({ event }) => {
        assertEvent(event, 'chats.viewing');
        return event.viewing;
      },
    }),
    takeList: enqueueActions(({ context, system, enqueue }, { conversations, saved }: ListAnswer) => {
      const entries = sortEntries(conversations);
      const offline = systemActor(system, 'offlineStore');
      if (offline) enqueue.sendTo(offline, { type: 'offline.listFetched', reachable: saved !== true });
      enqueue.assign({
        loaded: true,
        // The open conversation on screen is being read: its badge stays at zero.
        entries: context.selectedId && context.viewing ? withUnread(entries, context.selectedId, () => 0) : entries,
      });
    }),
    takeMessage: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ['chats.messageArrived', 'composer.delivered']);
      const m = event.message;
      enqueue.assign({ recentIds: [...context.recentIds.slice(1 - RECENT_IDS), m.id] });
      if (findEntry(context.entries, m.conversationId)) enqueue.assign({ entries: withMessage(context.entries, m, 0) });
      else enqueue(raise({ type: 'chats.refresh' })); // a conversation this list does not know yet
    }),
    countUnread: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'chats.messageArrived');
        const mentioned = context.me !== null && (event.message.mentions ?? []).includes(context.me);
        return withUnread(context.entries, event.message.conversationId, (n) => n + 1, mentioned);
      },
    }),
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
    tellConversation: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'composer.delivered');
      enqueue.sendTo('conversation', { type: 'conversation.messageSent', message: event.message });
      if (event.refresh) enqueue.sendTo('conversation', { type: 'conversation.refresh' });
    }),
    applyPresence: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'chats.presence');
        return withUser(context.entries, event.userId, presenceChange(event.status, event.lastSeenAt, event.at));
      },
    }),
    applyProfile: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'chats.profile');
        return withUser(context.entries, event.userId, (u) => ({
          ...u,
          avatarUrl: event.avatarUrl,
          displayName: event.displayName,
          ...(event.deactivated !== undefined ? { deactivated: event.deactivated } : {}),
        }));
      },
    }),
    addConversation: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'chats.conversationAdded');
        if (findEntry(context.entries, event.conversation.id)) return context.entries;
        return sortEntries([...context.entries, { conversation: event.conversation, unreadCount: 0 }]);
      },
    }),
    /** The conversation as the server has it now; its unread count stays this list's. */
    updateConversation: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'chats.conversationUpdated');
        const known = findEntry(context.entries, event.conversation.id);
        if (!known) return sortEntries([...context.entries, { conversation: event.conversation, unreadCount: 0 }]);
        return sortEntries(context.entries.map((e) => (e === known ? { ...e, conversation: event.conversation } : e)));
      },
    }),
    applySettings: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'chats.settings');
        return withSettings(context.entries, event.conversationId, event.settings);
      },
    }),
    dropConversation: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'chats.conversationRemoved');
        return context.entries.filter((e) => e.conversation.id !== event.conversationId);
      },
    }),
    applyEdit: assign({
      entries: ({ context, event }) => {
        assertEvent(event, 'chats.messageEdited');
        return withEdit(context.entries, event.conversationId, event.messageId, event.content, event.editedAt);
      },
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
    // Every opening (the open one chosen again too) and closing: the navigation actor keeps the address in step.
    announceSelection: enqueueActions(({ context, enqueue }) => {
      enqueue.emit({ type: 'chats.selected', conversationId: context.selectedId });
    }),
    /** A search result in the conversation already open: its actor jumps there as to a quote. */
    jumpInOpen: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'chats.open');
      if (event.messageId) enqueue.sendTo('conversation', { type: 'conversation.jumpTo', messageId: event.messageId });
    }),
    focusComposer: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('composer', { type: 'composer.focusConversation', conversationId: context.selectedId });
    }),
    startCall: enqueueActions(({ context, event, system, enqueue }) => {
      assertEvent(event, 'chats.call');
      const call = systemActor(system, 'call');
      if (call && context.selectedId) {
        enqueue.sendTo(call, { type: 'call.startOutgoing', conversationId: context.selectedId, video: event.video });
      }
    }),
  },
}).createMachine({
  id: 'chats',
  context: initialContext,
  invoke: [
    { id: 'session', src: 'session' },
    { id: 'pageVisibility', src: 'pageVisibility' },
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
        {
          id: 'composer',
          src: 'composer',
          input: ({ context }) => ({ userId: present(context.me, 'me'), tag: newOutboxTag() }),
        },
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
        'chats.messageEdited': { actions: 'applyEdit' },
        'chats.presence': { actions: 'applyPresence' },
        'chats.profile': { actions: 'applyProfile' },
        'chats.conversationAdded': { actions: 'addConversation' },
        'chats.conversationUpdated': { actions: 'updateConversation' },
        'chats.conversationRemoved': { actions: 'dropConversation' },
        'chats.settings': { actions: 'applySettings' },
        'chats.call': { guard: 'hasSelection', actions: 'startCall' },
      },
      type: 'parallel',
      states: {
        list: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'fetchConversations',
                src: 'fetchConversations',
                onDone: { target: 'idle', actions: { type: 'takeList', params: ({ event }) => event.output } },
                // Kept as it was; the next refetch tries again.
                onError: { target: 'idle' },
              },
              on: { 'chats.refresh': { target: 'loading', reenter: true } },
            },
            idle: {
              after: { conversationsRefetch: 'loading' },
              on: { 'chats.refresh': 'loading', 'chats.reconnected': 'loading' },
            },
          },
        },
        // The open conversation's machines: fetched once, when a conversation is opened or about to be.
        code: {
          initial: 'absent',
          states: {
            absent: {
              // Kept from before a sign-out.
              always: { guard: 'codeHere', target: 'here' },
              on: { 'chats.prepare': 'loading', 'chats.open': 'loading' },
            },
            loading: {
              invoke: {
                id: 'loadOwned',
                src: 'loadOwned',
                onDone: { target: 'here', actions: { type: 'keepCode', params: ({ event }) => event.output } },
                // Tried again on the next opening or `chats.prepare`.
                onError: { target: 'absent' },
              },
            },
            here: {},
          },
        },
        selection: {
          initial: 'none',
          states: {
            none: {
              on: { 'chats.open': { target: 'open', actions: ['select', 'announceSelection'] } },
            },
            open: {
              entry: 'focusComposer',
              invoke: {
                // Opening resets the unread count; a failure changes nothing visible (docs/behaviour.md §8).
                id: 'markRead',
                src: 'markRead',
                input: ({ context }) => ({ conversationId: present(context.selectedId, 'selectedId') }),
                onError: {},
              },
              initial: 'waiting',
              states: {
                // Its machines are on their way (the first opening before they are here); the view waits.
                waiting: {
                  always: { guard: 'codeHere', target: 'running' },
                  on: {
                    'xstate.error.actor.loadOwned': 'failed',
                    'chats.open': { guard: 'sameConversation', actions: ['aimAt', 'announceSelection'] },
                  },
                },
                // They could not be fetched: the view offers a retry (`chats.prepare`), as does opening it again.
                failed: {
                  tags: [CHATS_TAGS.conversationFailed],
                  on: { 'chats.prepare': 'waiting' },
                },
                running: {
                  entry: 'startConversation',
                  exit: 'stopConversation',
                  on: {
                    'chats.open': { guard: 'sameConversation', actions: ['jumpInOpen', 'announceSelection'] },
                    // Takes the place of the list-only handler above while a conversation is open.
                    'composer.delivered': { actions: ['takeMessage', 'tellConversation'] },
                    'composer.sent': {
                      guard: 'sentInOpen',
                      actions: sendTo('conversation', { type: 'conversation.ownSent' }),
                    },
                  },
                },
              },
              on: {
                'chats.open': { target: 'open', reenter: true, actions: ['select', 'announceSelection'] },
                'chats.close': { target: 'none', actions: ['unselect', 'focusComposer', 'announceSelection'] },
                // The open conversation is gone for this user (left on another tab, removed): it closes.
                'chats.conversationRemoved': {
                  guard: 'removedOpen',
                  target: 'none',
                  actions: ['dropConversation', 'unselect', 'focusComposer', 'announceSelection'],
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
