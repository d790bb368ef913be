// A group's call's hands and moderation (protocol: callRoom.protocol.ts).
// ready ──raiseHand / lowerHand──► hand (groupCall:hand, acknowledged) ──► ready (a refusal is the notice)
// ready ──moderate──► moderating (POST …/call/mute|remove) ──► ready (a failure is the notice)
// Anywhere: the server's state of this group's call sets the hands (the first read of them, when the overlay opens,
// only while no state has come); its «your microphone was turned off» counts.
import { assign, setup } from 'xstate';
import type { Ack } from '../../../contract/events';
import { failureMessage } from '../../../contract/failure';
import { listenToServer, type ServerRequestInput, serverRequest } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import {
  CALL_ROOM_NOTICES,
  CALL_ROOM_TAGS,
  type CallRoomContext,
  type CallRoomEffects,
  type CallRoomEvent,
  type CallRoomInput,
} from './callRoom.protocol';

export * from './callRoom.protocol';

/** Server events as this machine's own events (each names its group; the machine keeps its own). */
export const callRoomServerEvents = listenToServer<CallRoomEvent>({
  'groupCall:state': (p) =>
    p.call ? { type: 'room.state', conversationId: p.conversationId, hands: p.call.hands ?? [] } : null,
  'groupCall:muted': (p) => ({ type: 'room.muted', conversationId: p.conversationId }),
});

export const callRoomMachine = setup({
  types: {
    context: {} as CallRoomContext,
    events: {} as CallRoomEvent,
    input: {} as CallRoomInput,
  },
  actors: {
    serverEvents: callRoomServerEvents,
    /** groupCall:hand with the server's acknowledgement. */
    hand: serverRequest,
    currentHands: notWired('callRoom.currentHands') as CallRoomEffects['currentHands'],
    moderate: notWired('callRoom.moderate') as CallRoomEffects['moderate'],
  },
  guards: {
    ours: ({ context, event }) => 'conversationId' in event && event.conversationId === context.conversationId,
    ackOk: (_, ack: Ack) => ack.ok,
    notHeard: ({ context }) => !context.heard,
  },
  actions: {
    setHands: assign(({ event }) => ('hands' in event ? { hands: event.hands, heard: true } : {})),
    firstHands: assign((_, hands: string[]) => ({ hands })),
    muted: assign(({ context }) => ({ mutedTimes: context.mutedTimes + 1, notice: CALL_ROOM_NOTICES.muted })),
    refused: assign((_, ack: Ack) => ({ notice: ack.ok ? null : ack.message })),
  },
}).createMachine({
  id: 'callRoom',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    hands: [],
    mutedTimes: 0,
    notice: null,
    raise: true,
    request: null,
    heard: false,
  }),
  invoke: [
    { id: 'serverEvents', src: 'serverEvents' },
    // The hands raised before the overlay opened (its join's state may have come before this actor did).
    {
      id: 'currentHands',
      src: 'currentHands',
      input: ({ context }) => ({ conversationId: context.conversationId }),
      onDone: { guard: 'notHeard', actions: { type: 'firstHands', params: ({ event }) => event.output } },
    },
  ],
  on: {
    'room.state': { guard: 'ours', actions: 'setHands' },
    'room.muted': { guard: 'ours', actions: 'muted' },
    'room.dismissNotice': { actions: assign({ notice: null }) },
  },
  initial: 'ready',
  states: {
    ready: {
      on: {
        'room.raiseHand': { target: 'hand', actions: assign({ raise: true, notice: null }) },
        'room.lowerHand': { target: 'hand', actions: assign({ raise: false, notice: null }) },
        'room.moderate': {
          target: 'moderating',
          actions: assign(({ event }) => ({ request: { action: event.action, userId: event.userId }, notice: null })),
        },
      },
    },
    hand: {
      tags: [CALL_ROOM_TAGS.busy],
      invoke: {
        id: 'hand',
        src: 'hand',
        input: ({ context }) =>
          ({
            name: 'groupCall:hand',
            payload: { conversationId: context.conversationId, raised: context.raise },
          }) as ServerRequestInput,
        onDone: [
          { guard: { type: 'ackOk', params: ({ event }) => event.output }, target: 'ready' },
          { target: 'ready', actions: { type: 'refused', params: ({ event }) => event.output } },
        ],
      },
    },
    moderating: {
      tags: [CALL_ROOM_TAGS.busy],
      invoke: {
        id: 'moderate',
        src: 'moderate',
        input: ({ context }) => ({
          conversationId: context.conversationId,
          userId: context.request?.userId ?? '',
          action: context.request?.action ?? 'mute',
        }),
        onDone: { target: 'ready', actions: assign({ request: null }) },
        onError: {
          target: 'ready',
          actions: assign(({ event }) => ({
            request: null,
            notice: failureMessage(event.error, CALL_ROOM_NOTICES.failed),
          })),
        },
      },
    },
  },
});
