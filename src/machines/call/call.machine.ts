// Calls inside a conversation (docs/behaviour.md §2, §3, §4, §9): the caller invites and waits with a ring-back, the
// callee's tabs all ring for at most 25 s, either side can end. While a call is open the overlay asks for a
// LiveKit token for room conv-{conversationId}; the view renders nothing until token and url exist.
//
// idle ──startOutgoing──► inCall (signal: inviting → waiting → connected; media: fetching → ready)
// idle ──startIncoming──► ringing ──accept──► inCall (signal: connected)
// ringing ──decline / 25 s / cancelled by the caller / answered or declined in another tab──► idle
import { and, assertEvent, assign, enqueueActions, fromCallback, not, setup } from 'xstate';
import type { Ack } from '../../contract/events';
import { TIMINGS } from '../../contract/limits';
import { notWired } from '../not-wired';
import { listenToServer } from '../realtime/listen-to-server';
import { serverRequest } from '../realtime/server-request';

export interface CallPeer {
  id: string;
  name: string;
}

/** Call invitation (docs/behaviour.md §3): conversationId, from, video. */
export interface IncomingCall {
  conversationId: string;
  from: CallPeer;
  video: boolean;
}

export interface RoomAccess {
  token: string;
  url: string;
}

/** Call state (docs/behaviour.md §3) plus what the overlay needs. */
export interface CallContext {
  incoming: IncomingCall | null;
  activeConvId: string | null;
  initialVideo: boolean;
  initialAudio: boolean;
  /** Token and url for the conversation's room; null until the token request answers. */
  access: RoomAccess | null;
  /** Why the last call ended without the user ending it (Russian, shown until dismissed). */
  notice: string | null;
  /** The signed-in user's id while ringing: own tabs' answers stop this tab's ring. */
  me: string | null;
}

export const CALL_NOTICES = {
  declined: 'Собеседник отклонил звонок',
  noAnswer: 'Собеседник не ответил',
  tokenFailed: 'Не удалось подключиться к звонку',
  inviteFailed: 'Не удалось позвонить',
} as const;

type RemoteEvent =
  | { type: 'call.startIncoming'; conversationId: string; from: CallPeer; video: boolean }
  | { type: 'call.remoteAccepted'; conversationId: string; from: CallPeer; video: boolean }
  | { type: 'call.remoteDeclined'; conversationId: string; from: CallPeer }
  | { type: 'call.remoteEnded'; conversationId: string; from: CallPeer };

export type CallEvent =
  /** From the chats header's 'Позвонить' / 'Позвонить с видео'. */
  | { type: 'call.startOutgoing'; conversationId: string; video: boolean }
  | { type: 'call.accept'; video: boolean }
  | { type: 'call.decline' }
  /** The user closes the call view (leave button, close, cancel while ringing). */
  | { type: 'call.end' }
  /** The conference could not connect (e.g. the library's 'no livekit url provided'). */
  | { type: 'call.failed'; message: string }
  | { type: 'call.dismissNotice' }
  | RemoteEvent;

/** Server events as this machine's own events. */
export const callServerEvents = listenToServer<RemoteEvent>({
  'call:incoming': (p) => ({ type: 'call.startIncoming', ...p }),
  'call:accepted': (p) => ({ type: 'call.remoteAccepted', ...p }),
  'call:declined': (p) => ({ type: 'call.remoteDeclined', ...p }),
  'call:ended': (p) => ({ type: 'call.remoteEnded', ...p }),
});

type Emit =
  | { name: 'call:accept'; payload: { conversationId: string; video: boolean } }
  | { name: 'call:decline' | 'call:end'; payload: { conversationId: string } };

const idle = {
  incoming: null,
  activeConvId: null,
  initialVideo: false,
  initialAudio: false,
  access: null,
  me: null,
} satisfies Partial<CallContext>;

export const callMachine = setup({
  types: {
    context: {} as CallContext,
    events: {} as CallEvent,
  },
  actors: {
    serverEvents: callServerEvents,
    /** call:invite with the server's acknowledgement (ok:false when nobody could be reached). */
    invite: serverRequest,
    /** POST /api/livekit/token for the room. */
    fetchToken: notWired<RoomAccess, { room: string }>('call.fetchToken'),
    /** The looping ring of an incoming call (services.sound.startRing/stopRing). */
    ring: fromCallback(() => () => {}),
    /** The caller's ring-back while waiting for an answer (services.sound.startRingback/stopRingback). */
    ringback: fromCallback(() => () => {}),
  },
  guards: {
    sameIncoming: ({ context, event }) =>
      'conversationId' in event && event.conversationId === context.incoming?.conversationId,
    sameActive: ({ context, event }) => 'conversationId' in event && event.conversationId === context.activeConvId,
    /** An answer given by this user in another tab (the server relays it to the user's other sockets too). */
    byMe: ({ context, event }) => 'from' in event && event.from.id === context.me,
    ackOk: ({ event }) => (event as { output?: Ack }).output?.ok === true,
  },
  actions: {
    toServer: enqueueActions(({ system, enqueue }, emit: Emit) => {
      const realtime = system.get('realtime');
      if (realtime) enqueue.sendTo(realtime, { type: 'realtime.emit', ...emit });
    }),
    /** The other caller gets a decline at once instead of ringing against a busy line. */
    declineBusy: enqueueActions(({ system, event, enqueue }) => {
      assertEvent(event, 'call.startIncoming');
      const realtime = system.get('realtime');
      const emit: Emit = { name: 'call:decline', payload: { conversationId: event.conversationId } };
      if (realtime) enqueue.sendTo(realtime, { type: 'realtime.emit', ...emit });
    }),
    startOutgoing: assign(({ event }) => {
      assertEvent(event, 'call.startOutgoing');
      return { ...idle, activeConvId: event.conversationId, initialVideo: event.video, initialAudio: true, notice: null };
    }),
    startIncoming: assign(({ event, system }) => {
      assertEvent(event, 'call.startIncoming');
      const session = system.get('session')?.getSnapshot() as { context?: { session?: { user?: { id?: string } } | null } } | undefined;
      return {
        incoming: { conversationId: event.conversationId, from: event.from, video: event.video },
        me: session?.context?.session?.user?.id ?? null,
      };
    }),
    answer: assign(({ context, event }) => {
      assertEvent(event, 'call.accept');
      return { ...idle, activeConvId: context.incoming!.conversationId, initialVideo: event.video, initialAudio: true, notice: null };
    }),
    clear: assign(idle),
    setAccess: assign({ access: ({ event }) => (event as unknown as { output: RoomAccess }).output }),
    notify: assign((_, notice: string) => ({ notice })),
    notifyAck: assign({
      notice: ({ event }) => {
        const ack = (event as { output?: Ack }).output;
        return ack && !ack.ok ? ack.message : CALL_NOTICES.inviteFailed;
      },
    }),
    dismissNotice: assign({ notice: null }),
  },
  delays: { ringTimeout: TIMINGS.ringTimeoutMs },
}).createMachine({
  id: 'call',
  context: { ...idle, notice: null },
  invoke: { id: 'serverEvents', src: 'serverEvents' },
  initial: 'idle',
  on: { 'call.dismissNotice': { actions: 'dismissNotice' } },
  states: {
    idle: {
      on: {
        'call.startOutgoing': { target: 'inCall', actions: 'startOutgoing' },
        'call.startIncoming': { target: 'ringing', actions: 'startIncoming' },
      },
    },
    ringing: {
      tags: ['ringing'],
      invoke: { id: 'ring', src: 'ring' },
      after: {
        // Nobody answered: dismiss and tell the caller (docs/behaviour.md §4).
        ringTimeout: {
          target: 'idle',
          actions: [
            { type: 'toServer', params: ({ context }) => ({ name: 'call:decline', payload: { conversationId: context.incoming!.conversationId } }) },
            'clear',
          ],
        },
      },
      on: {
        'call.accept': {
          target: '#call.inCall.signal.connected',
          actions: [
            { type: 'toServer', params: ({ context, event }) => ({ name: 'call:accept', payload: { conversationId: context.incoming!.conversationId, video: event.video } }) },
            'answer',
          ],
        },
        'call.decline': {
          target: 'idle',
          actions: [
            { type: 'toServer', params: ({ context }) => ({ name: 'call:decline', payload: { conversationId: context.incoming!.conversationId } }) },
            'clear',
          ],
        },
        // The call layer went away (sign-out) while ringing: the ring stops, the caller hears a decline.
        'call.end': {
          target: 'idle',
          actions: [
            { type: 'toServer', params: ({ context }) => ({ name: 'call:decline', payload: { conversationId: context.incoming!.conversationId } }) },
            'clear',
          ],
        },
        // The caller cancelled (or hung up) before anyone answered.
        'call.remoteEnded': { guard: 'sameIncoming', target: 'idle', actions: 'clear' },
        // Answered or declined in another tab of this user.
        'call.remoteAccepted': { guard: and(['sameIncoming', 'byMe']), target: 'idle', actions: 'clear' },
        'call.remoteDeclined': { guard: and(['sameIncoming', 'byMe']), target: 'idle', actions: 'clear' },
        'call.startIncoming': { guard: not('sameIncoming'), actions: 'declineBusy' },
        // Calling someone else while this rings declines this call first.
        'call.startOutgoing': {
          target: 'inCall',
          actions: [
            { type: 'toServer', params: ({ context }) => ({ name: 'call:decline', payload: { conversationId: context.incoming!.conversationId } }) },
            'startOutgoing',
          ],
        },
      },
    },
    inCall: {
      tags: ['open'],
      type: 'parallel',
      on: {
        'call.end': {
          target: 'idle',
          actions: [{ type: 'toServer', params: ({ context }) => ({ name: 'call:end', payload: { conversationId: context.activeConvId! } }) }, 'clear'],
        },
        'call.failed': {
          target: 'idle',
          actions: [
            { type: 'toServer', params: ({ context }) => ({ name: 'call:end', payload: { conversationId: context.activeConvId! } }) },
            'clear',
            { type: 'notify', params: ({ event }) => event.message },
          ],
        },
        'call.remoteEnded': { guard: 'sameActive', target: 'idle', actions: 'clear' },
        'call.startIncoming': { guard: not('sameActive'), actions: 'declineBusy' },
      },
      states: {
        // The overlay asks for the room's token as soon as it opens.
        media: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                id: 'fetchToken',
                src: 'fetchToken',
                input: ({ context }) => ({ room: `conv-${context.activeConvId}` }),
                onDone: { target: 'ready', actions: 'setAccess' },
                onError: {
                  target: '#call.idle',
                  actions: [
                    { type: 'toServer', params: ({ context }) => ({ name: 'call:end', payload: { conversationId: context.activeConvId! } }) },
                    'clear',
                    { type: 'notify', params: CALL_NOTICES.tokenFailed },
                  ],
                },
              },
            },
            ready: {},
          },
        },
        signal: {
          initial: 'inviting',
          states: {
            inviting: {
              tags: ['calling'],
              invoke: {
                id: 'invite',
                src: 'invite',
                input: ({ context }) => ({
                  name: 'call:invite' as const,
                  payload: { conversationId: context.activeConvId!, video: context.initialVideo },
                }),
                onDone: [
                  { guard: 'ackOk', target: 'waiting' },
                  // Nobody could be reached (or the server refused): end at once with the server's reason.
                  { target: '#call.idle', actions: ['clear', 'notifyAck'] },
                ],
              },
            },
            waiting: {
              tags: ['calling'],
              invoke: { id: 'ringback', src: 'ringback' },
              after: {
                ringTimeout: {
                  target: '#call.idle',
                  actions: [
                    { type: 'toServer', params: ({ context }) => ({ name: 'call:end', payload: { conversationId: context.activeConvId! } }) },
                    'clear',
                    { type: 'notify', params: CALL_NOTICES.noAnswer },
                  ],
                },
              },
              on: {
                'call.remoteAccepted': { guard: 'sameActive', target: 'connected' },
                'call.remoteDeclined': {
                  guard: 'sameActive',
                  target: '#call.idle',
                  actions: ['clear', { type: 'notify', params: CALL_NOTICES.declined }],
                },
              },
            },
            connected: {},
          },
        },
      },
    },
  },
});
