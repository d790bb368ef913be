// The members' side of guest links (protocol: guestDoor.protocol.ts; docs/behaviour.md §10.40). It hears
// `guest:waiting` for its room, first asks who already waits (a member who joined after the knock), makes the
// call's link (POST /api/guest-links) and sends the decisions over the socket (`guest:admit`, `guest:deny`,
// `guest:remove`), whose refusals it shows. A ring is emitted for the view's sound.
import { assertEvent, assign, emit, setup } from 'xstate';
import type { Ack } from '../../../contract/events';
import { failureMessage } from '../../../contract/failure';
import { listenToServer, type ServerRequestInput } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import {
  CALL_LINK_HOURS,
  DOOR_TAGS,
  DOOR_TEXTS,
  type GuestDoorContext,
  type GuestDoorEmitted,
  type GuestDoorEvent,
  type GuestDoorInput,
  type GuestLink,
  type Waiting,
} from './guestDoor.protocol';

export * from './guestDoor.protocol';

export const guestDoorServerEvents = listenToServer<GuestDoorEvent>({
  'guest:waiting': (p) => ({ type: 'door.waiting', room: p.room, guests: p.guests, ring: p.ring }),
});

const decision = (name: 'guest:admit' | 'guest:deny' | 'guest:remove', knockId: string): ServerRequestInput => ({
  name,
  payload: { knockId },
});

export const guestDoorMachine = setup({
  types: {
    context: {} as GuestDoorContext,
    events: {} as GuestDoorEvent,
    input: {} as GuestDoorInput,
    emitted: {} as GuestDoorEmitted,
  },
  actors: {
    serverEvents: guestDoorServerEvents,
    /** GET /api/guest-links/waiting (403 for a member who does not decide: nobody is shown). */
    loadWaiting: notWired<Waiting[], { room: string }>('guestDoor.loadWaiting'),
    /** POST /api/guest-links, then the link to the clipboard. */
    createLink: notWired<GuestLink, { room: string; hours: number }>('guestDoor.createLink'),
    /** A decision over the socket, answered with the server's Ack. */
    decide: notWired<Ack, ServerRequestInput>('guestDoor.decide'),
  },
  guards: {
    ownRoom: ({ context, event }) => event.type === 'door.waiting' && event.room === context.room,
    rang: ({ context, event }) => event.type === 'door.waiting' && event.room === context.room && event.ring,
  },
  actions: {
    takeWaiting: assign({
      waiting: ({ event }) => {
        assertEvent(event, 'door.waiting');
        return event.guests;
      },
    }),
    takeAck: assign((_, ack: Ack) => ({ error: ack.ok ? null : ack.message })),
  },
}).createMachine({
  id: 'guestDoor',
  context: ({ input }) => ({ room: input.room, waiting: [], link: null, error: null }),
  invoke: { src: 'serverEvents' },
  on: {
    'door.waiting': [
      { guard: 'rang', actions: ['takeWaiting', emit({ type: 'door.rang' } as const)] },
      { guard: 'ownRoom', actions: 'takeWaiting' },
    ],
    'door.dismissError': { actions: assign({ error: null }) },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadWaiting',
        src: 'loadWaiting',
        input: ({ context }) => ({ room: context.room }),
        onDone: { target: 'idle', actions: assign({ waiting: ({ event }) => event.output }) },
        onError: 'idle',
      },
    },
    idle: {
      on: {
        'door.invite': 'creating',
        'door.admit': { target: 'deciding', actions: assign({ error: null }) },
        'door.deny': { target: 'deciding', actions: assign({ error: null }) },
        'door.remove': { target: 'deciding', actions: assign({ error: null }) },
      },
    },
    creating: {
      tags: [DOOR_TAGS.busy],
      invoke: {
        id: 'createLink',
        src: 'createLink',
        input: ({ context }) => ({ room: context.room, hours: CALL_LINK_HOURS }),
        onDone: { target: 'idle', actions: assign({ link: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => failureMessage(event.error, DOOR_TEXTS.linkFailed) }),
        },
      },
    },
    deciding: {
      tags: [DOOR_TAGS.busy],
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ event }) => {
          if (event.type === 'door.admit') return decision('guest:admit', event.knockId);
          if (event.type === 'door.deny') return decision('guest:deny', event.knockId);
          assertEvent(event, 'door.remove');
          return decision('guest:remove', event.knockId);
        },
        onDone: { target: 'idle', actions: { type: 'takeAck', params: ({ event }) => event.output } },
      },
    },
  },
});
