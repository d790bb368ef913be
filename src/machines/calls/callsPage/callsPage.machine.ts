// The /calls page (docs/behaviour.md §2): a form for a named room ('demo-room' by default), a check of the
// microphone and camera, a token request while 'Подключаемся…' shows, then the video conference; a disconnect or a
// failure of the room goes back to the form.
//
// form ──join──► checking ──media ok──► joining ──token──► inRoom ──left / failed──► form
// checking ──no microphone or camera (plain http, refused, none)──► form with the reason: nothing is connected
// (docs/behaviour.md §10.23); a failure of the room is shown in Russian, never the library's English.
// The line under the form shows the video server: the address the server hands out (a guess while it has not
// answered) until a token names one. Below the form, the user's call history (GET /api/calls) with a call-back per
// row: the conversation opens and the call starts.
import { assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import type { MediaProblem } from '../../shared/secure-context.protocol';
import { CALL_NOTICES, failureNotice, mediaNotice } from '../call/call.protocol';
import {
  type CallsPageContext,
  type CallsPageEffects,
  type CallsPageEvent,
  DEFAULT_GUEST_NAME,
  DEFAULT_ROOM,
  HISTORY_FAILED,
  ROOM_FAILED,
} from './callsPage.protocol';

export * from './callsPage.protocol';

/** The media check's answer: null when the microphone and camera can be had. */
type MediaCheck = MediaProblem | null;

export const callsPageMachine = setup({
  types: {
    context: {} as CallsPageContext,
    events: {} as CallsPageEvent,
  },
  actors: {
    fetchToken: notWired('callsPage.fetchToken') as CallsPageEffects['fetchToken'],
    // Null (the address unknown) until its services provide the real one.
    serverAddress: fromPromise(async () => null) as CallsPageEffects['serverAddress'],
    loadHistory: notWired('callsPage.loadHistory') as CallsPageEffects['loadHistory'],
    checkMedia: notWired('callsPage.checkMedia') as CallsPageEffects['checkMedia'],
  },
  actions: {
    /** Why the microphone or camera could not be had: a plain-http page says where the https one is. */
    notifyMedia: assign((_, problem: MediaCheck) =>
      problem?.kind === 'insecure'
        ? { error: null, insecure: { secureUrl: problem.secureUrl } }
        : { error: problem ? mediaNotice(problem) : CALL_NOTICES.mediaFailed, insecure: null },
    ),
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
    mediaReady: (_, check: MediaCheck) => check === null,
  },
}).createMachine({
  id: 'callsPage',
  context: {
    room: DEFAULT_ROOM,
    participantName: DEFAULT_GUEST_NAME,
    access: null,
    error: null,
    insecure: null,
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
              target: 'checking',
              actions: assign(({ event }) => ({
                room: event.room.trim(),
                participantName: event.name.trim() || DEFAULT_GUEST_NAME,
                error: null,
                insecure: null,
              })),
            },
          },
        },
        // The microphone and camera first (the conference opens with both on): on a plain-http page, or without
        // them, nothing is connected and the form says why.
        checking: {
          tags: ['form', 'busy'],
          invoke: {
            id: 'checkMedia',
            src: 'checkMedia',
            input: { video: true },
            onDone: [
              { guard: { type: 'mediaReady', params: ({ event }) => event.output }, target: 'joining' },
              { target: 'form', actions: { type: 'notifyMedia', params: ({ event }) => event.output } },
            ],
            onError: { target: 'form', actions: { type: 'notifyMedia', params: null } },
          },
        },
        joining: {
          tags: ['form', 'busy'],
          invoke: {
            id: 'fetchToken',
            src: 'fetchToken',
            input: ({ context }) => ({ room: context.room, participantName: context.participantName }),
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
            // The library's English (e.g. 'no livekit url provided') never reaches the form: a device error by its
            // name, a Russian reason as it is, anything else as «Не удалось подключиться к комнате».
            'room.failed': {
              target: 'form',
              actions: assign(({ event }) => ({ access: null, error: failureNotice(event, ROOM_FAILED) })),
            },
          },
        },
      },
    },
  },
});
