// The /calls page (docs/behaviour.md §2): a form for a named room ('demo-room' by default), a token request while
// 'Подключаемся…' shows, then the video conference; a disconnect or a failure of the room goes back to the form.
// The line under the form shows the video server: the address the server hands out (a guess while it has not
// answered) until a token names one. Below the form, the user's call history (GET /api/calls) with a call-back per
// row: the conversation opens and the call starts.
import { assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  type CallHistoryEntry,
  type CallsPageContext,
  type CallsPageEvent,
  DEFAULT_GUEST_NAME,
  DEFAULT_ROOM,
  HISTORY_FAILED,
  ROOM_FAILED,
  type RoomAccess,
} from './callsPage.protocol';

export * from './callsPage.protocol';

export const callsPageMachine = setup({
  types: {
    context: {} as CallsPageContext,
    events: {} as CallsPageEvent,
  },
  actors: {
    /** POST /api/livekit/token; rejects with an Error whose message is the server's (Russian) reason. */
    fetchToken: notWired<RoomAccess, { room: string; participantName: string }>('callsPage.fetchToken'),
    /** The video server's address as the server hands it out (null when unknown). */
    serverAddress: fromPromise<string | null>(async () => null),
    /** GET /api/calls: the newest calls. */
    loadHistory: notWired<CallHistoryEntry[]>('callsPage.loadHistory'),
  },
  actions: {
    // The chats actor opens the conversation (the address follows) and starts the call in it.
    callBack: enqueueActions(({ event, system, enqueue }) => {
      assertEvent(event, 'history.callBack');
      const chats = chatsInbox(system);
      if (!chats) return;
      enqueue.sendTo(chats, { type: 'chats.open', conversationId: event.conversationId });
      enqueue.sendTo(chats, { type: 'chats.call', video: event.video });
    }),
  },
  guards: {
    hasRoom: ({ event }) => event.type === 'room.join' && event.room.trim() !== '',
  },
}).createMachine({
  id: 'callsPage',
  context: {
    room: DEFAULT_ROOM,
    access: null,
    error: null,
    serverUrl: null,
    history: null,
    historyError: null,
  },
  invoke: {
    id: 'serverAddress',
    src: 'serverAddress',
    // A token that already named the server wins over the guess.
    onDone: { actions: assign({ serverUrl: ({ context, event }) => context.serverUrl ?? event.output }) },
  },
  on: { 'history.callBack': { actions: 'callBack' } },
  type: 'parallel',
  states: {
    history: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['historyLoading'],
          invoke: {
            id: 'loadHistory',
            src: 'loadHistory',
            onDone: { target: 'loaded', actions: assign({ history: ({ event }) => event.output, historyError: null }) },
            onError: { target: 'failed', actions: assign({ historyError: HISTORY_FAILED }) },
          },
        },
        loaded: {},
        failed: { on: { 'history.retry': 'loading' } },
      },
    },
    room: {
      initial: 'form',
      states: {
        form: {
          tags: ['form'],
          on: {
            'room.join': {
              guard: 'hasRoom',
              target: 'joining',
              actions: assign(({ event }) => ({ room: event.room.trim(), error: null })),
            },
          },
        },
        joining: {
          tags: ['form', 'busy'],
          invoke: {
            id: 'fetchToken',
            src: 'fetchToken',
            input: ({ context, event }) => {
              assertEvent(event, 'room.join');
              return { room: context.room, participantName: event.name.trim() || DEFAULT_GUEST_NAME };
            },
            onDone: {
              target: 'inRoom',
              actions: assign(({ event }) => ({ access: event.output, serverUrl: event.output.url || null })),
            },
            onError: {
              target: 'form',
              actions: assign({ error: ({ event }) => failureMessage(event.error, ROOM_FAILED) }),
            },
          },
        },
        inRoom: {
          tags: ['inRoom'],
          on: {
            'room.left': { target: 'form', actions: assign({ access: null }) },
            'room.failed': { target: 'form', actions: assign(({ event }) => ({ access: null, error: event.message })) },
          },
        },
      },
    },
  },
});
