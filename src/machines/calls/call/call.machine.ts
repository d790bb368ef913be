// Calls inside a conversation (docs/behaviour.md §2, §3, §4, §9): the caller invites and waits with a ring-back, the
// callee's tabs all ring for at most 25 s, either side can end. While a call is open the overlay asks for a
// LiveKit token for room conv-{conversationId}; the view renders nothing until token and url exist.
//
// idle ──startOutgoing──► preparing ──media ok──► inCall (signal: inviting → waiting → connected; media: fetching → ready)
// idle ──startIncoming──► ringing ──accept──► answering ──media ok──► inCall (signal: connected)
// preparing / answering ──no microphone or camera (plain http, refused, none)──► idle with a notice: the caller's
// invitation is never sent (nobody rings, the server logs no call); the callee declines.
// ringing ──decline / 25 s / cancelled by the caller / answered or declined in another tab──► idle
// A group's call (context.group, docs/calls.md "Group calls") runs through the same states: starting or joining it is
// one acknowledged request (groupCall:start / groupCall:join) that goes straight to connected, hanging up leaves it
// (groupCall:leave), «Завершить для всех» ends it for everyone, and its end, or my joining from another device,
// arrives as the remote end; being removed by an owner or admin (groupCall:removed) ends it here with a notice.
import { and, assertEvent, assign, fromCallback, not, setup } from 'xstate';
import type { Ack } from '../../../contract/events';
import { TIMINGS } from '../../../contract/limits';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { listenToServer, type ServerRequestInput, serverRequest } from '../../realtime/index';
import type { RealtimeEmit } from '../../realtime/realtime/realtime.protocol';
import { watchSignedInUser } from '../../session/index';
import { notWired } from '../../shared/not-wired';
import { present } from '../../shared/present';
import type { MediaProblem } from '../../shared/secure-context.protocol';
import { type AnySystem, systemActor } from '../../shared/system';
import {
  CALL_NOTICES,
  type CallContext,
  type CallEffects,
  type CallEvent,
  type CallRemoteEvent,
  failureNotice,
  mediaNotice,
  type RoomAccess,
} from './call.protocol';

export * from './call.protocol';

/**
 * A group's call is over here: it ended or moved to another device. Nobody in particular ended it, and the remote
 * end's guards read only the conversation, so it names no one.
 */
const over = (p: { conversationId: string }) =>
  ({ type: 'call.remoteEnded', conversationId: p.conversationId }) as CallRemoteEvent;

/** Server events as this machine's own events. */
export const callServerEvents = listenToServer<CallRemoteEvent>(
  {
    'call:incoming': (p) => ({ type: 'call.startIncoming', ...p }),
    'call:accepted': (p) => ({ type: 'call.remoteAccepted', ...p }),
    'call:declined': (p) => ({ type: 'call.remoteDeclined', ...p }),
    'call:ended': (p) => ({ type: 'call.remoteEnded', ...p }),
    // A group's call ended, or I took my place in it from another tab or device: over here either way.
    'groupCall:state': (p) => (p.call ? null : over(p)),
    'groupCall:moved': over,
    'groupCall:removed': (p) => ({ type: 'call.removed', conversationId: p.conversationId }),
  },
  // The socket came back: a group's call is taken again from it (the server drops a place whose socket stays gone).
  { onConnected: () => ({ type: 'call.reconnected' }) },
);

/**
 * Tells the server (fire and forget) through the realtime actor; absent in isolated tests. A signal made while the
 * socket reconnects (a page waking up after its ring timed out) is sent once it is back, not lost.
 */
const toServer = (system: AnySystem, emit: RealtimeEmit) =>
  systemActor(system, 'realtime')?.send({ ...emit, untilConnected: true });

const idle = {
  incoming: null,
  activeConvId: null,
  initialVideo: false,
  initialAudio: false,
  access: null,
  me: null,
  group: null,
  noiseRunning: false,
} satisfies Partial<CallContext>;

/** What a new session starts with: «Шумоподавление» on. */
const fresh = { noiseSuppression: true } satisfies Partial<CallContext>;

/** The media check's answer: null when the microphone (and camera) can be had. */
type MediaCheck = MediaProblem | null;

export const callMachine = setup({
  types: {
    context: {} as CallContext,
    events: {} as CallEvent,
  },
  actors: {
    serverEvents: callServerEvents,
    /** Who is signed in: a sign-out hangs up (a call must not outlive the session). */
    session: watchSignedInUser('call.signedIn', 'call.signedOut'),
    /** call:invite with the server's acknowledgement (ok:false when nobody could be reached). */
    invite: serverRequest,
    /** POST /api/livekit/token for the room. */
    fetchToken: notWired('call.fetchToken') as CallEffects['fetchToken'],
    /**
     * The microphone (and camera for a video call) before anything is sent: null when they can be had, else why not
     * (services/app/secure-context.ts: a page over plain http, refused, none).
     */
    checkMedia: notWired('call.checkMedia') as CallEffects['checkMedia'],
    /** The looping ring of an incoming call (services.sound.startRing/stopRing). */
    ring: fromCallback(() => () => {}) as CallEffects['ring'],
    /** The caller's ring-back while waiting for an answer (services.sound.startRingback/stopRingback). */
    ringback: fromCallback(() => () => {}) as CallEffects['ringback'],
  },
  guards: {
    sameIncoming: ({ context, event }) =>
      'conversationId' in event && event.conversationId === context.incoming?.conversationId,
    sameActive: ({ context, event }) => 'conversationId' in event && event.conversationId === context.activeConvId,
    /** An answer given by this user in another tab (the server relays it to the user's other sockets too). */
    byMe: ({ context, event }) => 'from' in event && event.from.id === context.me,
    ackOk: (_, ack: Ack) => ack.ok,
    /** A group's call: the server's acknowledgement is the way in, nobody answers it. */
    groupAckOk: ({ context }, ack: Ack) => !!context.group && ack.ok,
    mediaReady: (_, check: MediaCheck) => check === null,
  },
  actions: {
    /** Declines the ringing call: the caller stops waiting. */
    sendDecline: ({ context, system }) => {
      const incoming = present(context.incoming, 'incoming');
      // A group's ring: only my own tabs stop ringing, the call goes on.
      toServer(system, {
        type: 'realtime.emit',
        name: incoming.group ? 'groupCall:decline' : 'call:decline',
        payload: { conversationId: incoming.conversationId },
      });
    },
    sendAccept: ({ context, system }) => {
      const { conversationId, group } = present(context.incoming, 'incoming');
      toServer(system, {
        type: 'realtime.emit',
        name: group ? 'groupCall:join' : 'call:accept',
        payload: { conversationId, video: context.initialVideo },
      } as RealtimeEmit);
    },
    /** Ends the open call for everyone in it; a group's call is only left (the last one out ends it). */
    sendEnd: ({ context, event, system }) =>
      toServer(system, {
        type: 'realtime.emit',
        // «Завершить для всех» (`all`) ends a group's call for everyone in it.
        name: context.group ? ((event as { all?: true }).all ? 'groupCall:end' : 'groupCall:leave') : 'call:end',
        payload: { conversationId: present(context.activeConvId, 'activeConvId') },
      }),
    /** Back online during a group's call: my place in it is this socket's again. */
    rejoin: ({ context, system }) =>
      context.group &&
      toServer(system, {
        type: 'realtime.emit',
        name: 'groupCall:join',
        payload: { conversationId: present(context.activeConvId, 'activeConvId') },
      }),
    /** The other caller gets a decline at once instead of ringing against a busy line. */
    declineBusy: ({ system, event }) => {
      assertEvent(event, 'call.startIncoming');
      toServer(system, {
        type: 'realtime.emit',
        name: event.group ? 'groupCall:decline' : 'call:decline',
        payload: { conversationId: event.conversationId },
      });
    },
    startOutgoing: assign(({ event }) => {
      assertEvent(event, 'call.startOutgoing');
      return {
        ...idle,
        activeConvId: event.conversationId,
        initialVideo: event.video,
        initialAudio: true,
        notice: null,
        insecure: null,
        group: event.group ?? null,
      };
    }),
    startIncoming: assign(({ event, system }) => {
      assertEvent(event, 'call.startIncoming');
      return {
        incoming: {
          conversationId: event.conversationId,
          from: event.from,
          video: event.video,
          group: event.group,
        },
        me: systemActor(system, 'session')?.getSnapshot().context.session?.user.id ?? null,
      };
    }),
    /** The callee's choice of video, kept while the media check runs. */
    chooseVideo: assign(({ event }) => {
      assertEvent(event, 'call.accept');
      return { initialVideo: event.video };
    }),
    answer: assign(({ context }) => ({
      ...idle,
      activeConvId: present(context.incoming, 'incoming').conversationId,
      initialVideo: context.initialVideo,
      initialAudio: true,
      notice: null,
      insecure: null,
      group: context.incoming?.group ? ('join' as const) : null,
    })),
    /** The call's chat is its conversation (src/ui/calls/useCallChat.ts): the chats actor opens it. */
    openConversation: ({ context, system }) => {
      if (context.activeConvId) chatsInbox(system)?.send({ type: 'chats.open', conversationId: context.activeConvId });
    },
    clear: assign(idle),
    setAccess: assign((_, access: RoomAccess) => ({ access })),
    notify: assign((_, notice: string) => ({ notice })),
    notifyAck: assign((_, ack: Ack) => ({ notice: ack.ok ? CALL_NOTICES.inviteFailed : ack.message })),
    notifyFailure: assign((_, failure: { name?: string; message: string }) => ({ notice: failureNotice(failure) })),
    /** Why the microphone or camera could not be had: a plain-http page says where the https one is. */
    notifyMedia: assign((_, problem: MediaCheck) =>
      problem?.kind === 'insecure'
        ? { notice: null, insecure: { secureUrl: problem.secureUrl } }
        : { notice: problem ? mediaNotice(problem) : CALL_NOTICES.mediaFailed, insecure: null },
    ),
    dismissNotice: assign({ notice: null, insecure: null }),
    chooseNoiseSuppression: assign(({ event }) => {
      assertEvent(event, 'call.noiseSuppression');
      return { noiseSuppression: event.on };
    }),
    noiseRunning: assign(({ event }) => {
      assertEvent(event, 'call.noiseRunning');
      return { noiseRunning: event.running };
    }),
    /** Sign-out forgets this session's choices: the next person starts with the defaults. */
    forgetChoices: assign(fresh),
  },
  delays: { ringTimeout: TIMINGS.ringTimeoutMs },
}).createMachine({
  id: 'call',
  context: { ...idle, ...fresh, notice: null, insecure: null },
  invoke: [
    { id: 'serverEvents', src: 'serverEvents' },
    { id: 'session', src: 'session' },
  ],
  initial: 'idle',
  on: {
    'call.dismissNotice': { actions: 'dismissNotice' },
    'call.signedOut': { actions: 'forgetChoices' },
  },
  states: {
    idle: {
      on: {
        'call.startOutgoing': { target: 'preparing', actions: 'startOutgoing' },
        'call.startIncoming': { target: 'ringing', actions: 'startIncoming' },
      },
    },
    // The caller's microphone (and camera) first: nothing is sent until they can be had, so a call that could not
    // start rings nobody and leaves no entry in the conversation.
    preparing: {
      tags: ['preparing'],
      invoke: {
        id: 'checkMedia',
        src: 'checkMedia',
        input: ({ context }) => ({ video: context.initialVideo }),
        onDone: [
          { guard: { type: 'mediaReady', params: ({ event }) => event.output }, target: 'inCall' },
          { target: 'idle', actions: ['clear', { type: 'notifyMedia', params: ({ event }) => event.output }] },
        ],
        onError: { target: 'idle', actions: ['clear', { type: 'notifyMedia', params: null }] },
      },
      on: {
        'call.end': { target: 'idle', actions: 'clear' },
        'call.signedOut': { target: 'idle', actions: ['clear', 'forgetChoices'] },
        'call.startIncoming': { actions: 'declineBusy' },
      },
    },
    // The callee's microphone (and camera) before the answer goes out; without them the call is declined.
    answering: {
      tags: ['preparing'],
      invoke: {
        id: 'checkMedia',
        src: 'checkMedia',
        input: ({ context }) => ({ video: context.initialVideo }),
        onDone: [
          {
            guard: { type: 'mediaReady', params: ({ event }) => event.output },
            target: '#call.inCall.signal.connected',
            actions: ['sendAccept', 'answer'],
          },
          {
            target: 'idle',
            actions: ['sendDecline', 'clear', { type: 'notifyMedia', params: ({ event }) => event.output }],
          },
        ],
        onError: { target: 'idle', actions: ['sendDecline', 'clear', { type: 'notifyMedia', params: null }] },
      },
      on: {
        'call.end': { target: 'idle', actions: ['sendDecline', 'clear'] },
        'call.signedOut': { target: 'idle', actions: ['sendDecline', 'clear', 'forgetChoices'] },
        'call.remoteEnded': { guard: 'sameIncoming', target: 'idle', actions: 'clear' },
        'call.startIncoming': { guard: not('sameIncoming'), actions: 'declineBusy' },
      },
    },
    ringing: {
      tags: ['ringing'],
      invoke: { id: 'ring', src: 'ring' },
      after: {
        // Nobody answered: dismiss and tell the caller (docs/behaviour.md §4).
        ringTimeout: {
          target: 'idle',
          actions: ['sendDecline', 'clear'],
        },
      },
      on: {
        'call.accept': { target: 'answering', actions: 'chooseVideo' },
        'call.decline': {
          target: 'idle',
          actions: ['sendDecline', 'clear'],
        },
        // Signed out while ringing: the ring stops, the caller hears a decline.
        'call.signedOut': {
          target: 'idle',
          actions: ['sendDecline', 'clear', 'forgetChoices'],
        },
        'call.end': {
          target: 'idle',
          actions: ['sendDecline', 'clear'],
        },
        // The caller cancelled (or hung up) before anyone answered.
        'call.remoteEnded': { guard: 'sameIncoming', target: 'idle', actions: 'clear' },
        // Answered or declined in another tab of this user.
        'call.remoteAccepted': { guard: and(['sameIncoming', 'byMe']), target: 'idle', actions: 'clear' },
        'call.remoteDeclined': { guard: and(['sameIncoming', 'byMe']), target: 'idle', actions: 'clear' },
        'call.startIncoming': { guard: not('sameIncoming'), actions: 'declineBusy' },
        // Calling someone else while this rings declines this call first.
        'call.startOutgoing': {
          target: 'preparing',
          actions: ['sendDecline', 'startOutgoing'],
        },
      },
    },
    inCall: {
      tags: ['open'],
      type: 'parallel',
      entry: 'openConversation',
      on: {
        'call.end': {
          target: 'idle',
          actions: ['sendEnd', 'clear'],
        },
        'call.reconnected': { actions: 'rejoin' },
        // Signed out during the call: it ends for everyone in it.
        'call.signedOut': {
          target: 'idle',
          actions: ['sendEnd', 'clear', 'forgetChoices'],
        },
        'call.noiseSuppression': { actions: 'chooseNoiseSuppression' },
        'call.noiseRunning': { actions: 'noiseRunning' },
        'call.failed': {
          target: 'idle',
          actions: ['sendEnd', 'clear', { type: 'notifyFailure', params: ({ event }) => event }],
        },
        'call.remoteEnded': { guard: 'sameActive', target: 'idle', actions: 'clear' },
        // Removed from a group's call by its owner or an admin: out, told why (the server already has me out).
        'call.removed': {
          guard: 'sameActive',
          target: 'idle',
          actions: ['clear', { type: 'notify', params: CALL_NOTICES.removed }],
        },
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
                onDone: { target: 'ready', actions: { type: 'setAccess', params: ({ event }) => event.output } },
                onError: {
                  target: '#call.idle',
                  actions: ['sendEnd', 'clear', { type: 'notify', params: CALL_NOTICES.tokenFailed }],
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
                input: ({ context }) =>
                  ({
                    name:
                      context.group === 'join' ? 'groupCall:join' : context.group ? 'groupCall:start' : 'call:invite',
                    payload: {
                      conversationId: present(context.activeConvId, 'activeConvId'),
                      video: context.initialVideo,
                    },
                  }) as ServerRequestInput,
                onDone: [
                  // A group's call: in at once, nobody is waited for.
                  {
                    guard: { type: 'groupAckOk', params: ({ event }) => event.output },
                    target: 'connected',
                  },
                  { guard: { type: 'ackOk', params: ({ event }) => event.output }, target: 'waiting' },
                  // Nobody could be reached (or the server refused): end at once with the server's reason.
                  {
                    target: '#call.idle',
                    actions: ['clear', { type: 'notifyAck', params: ({ event }) => event.output }],
                  },
                ],
              },
            },
            waiting: {
              tags: ['calling'],
              invoke: { id: 'ringback', src: 'ringback' },
              after: {
                ringTimeout: {
                  target: '#call.idle',
                  actions: ['sendEnd', 'clear', { type: 'notify', params: CALL_NOTICES.noAnswer }],
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
