// The members' side of guest links (protocol: guestDoor.protocol.ts; docs/behaviour.md §10.40). It hears
// `guest:waiting` for its room, asks once who already waits (a member who joined after the knock), makes the
// call's link (POST /api/guest-links) and sends the decisions over the socket (`guest:admit`, `guest:deny`,
// `guest:remove`), whose refusals it shows. A ring is emitted for the view's sound. That first question runs
// beside the rest: «Пригласить по ссылке» works while it is on its way, and a `guest:waiting` heard meanwhile is
// not overwritten by its older answer.
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
  type DoorLink,
  type SecretDoor,
  type Waiting,
} from './guestDoor.protocol';

export * from './guestDoor.protocol';

export const guestDoorServerEvents = listenToServer<GuestDoorEvent, SecretDoor | null>({
  'guest:waiting': (p) => ({ type: 'door.waiting', room: p.room, guests: p.guests, ring: p.ring }),
});

/**
 * A decision as the wiring sends it. At a secret chat's call `e2ee` says more: «Впустить» seals the call key to the
 * guest's key (the wiring checks its MAC first), «Удалить из звонка» re-keys the call once the server took it.
 */
export type DoorDecision = ServerRequestInput & {
  e2ee?: { secret: SecretDoor; guest: Waiting | null; link: DoorLink | null };
};

const decision = (
  name: 'guest:admit' | 'guest:deny' | 'guest:remove',
  knockId: string,
  context: GuestDoorContext,
): DoorDecision => {
  const base = { name, payload: { knockId } } as ServerRequestInput;
  if (!context.secret || name === 'guest:deny') return base;
  const guest = context.waiting.find((g) => g.id === knockId) ?? null;
  return { ...base, e2ee: { secret: context.secret, guest, link: context.link } };
};

export const guestDoorMachine = setup({
  types: {
    context: {} as GuestDoorContext,
    events: {} as GuestDoorEvent,
    input: {} as GuestDoorInput,
    emitted: {} as GuestDoorEmitted,
  },
  actors: {
    /** `guest:waiting`; at a secret chat's call the wiring checks each guest's key first (`Waiting.check`). */
    serverEvents: guestDoorServerEvents,
    /** GET /api/guest-links/waiting (403 for a member who does not decide: nobody is shown). */
    loadWaiting: notWired<Waiting[], { room: string; secret?: SecretDoor }>('guestDoor.loadWaiting'),
    /** POST /api/guest-links, then the link to the clipboard (a secret chat's: with its secret in the fragment). */
    createLink: notWired<DoorLink, { room: string; hours: number; secret?: SecretDoor }>('guestDoor.createLink'),
    /** A decision over the socket, answered with the server's Ack. */
    decide: notWired<Ack, DoorDecision>('guestDoor.decide'),
    /**
     * A guest left a secret chat's call: the leading member's device (`door.guestLeft`'s `lead`, whoever let the
     * guest in) commits an update of its leaf, so the call key moves to a new epoch the guest cannot derive.
     */
    rekey: notWired<unknown, { secret: SecretDoor; knockId: string }>('guestDoor.rekey'),
  },
  guards: {
    secretCall: ({ context }) => context.secret !== null,
    /** A secret chat's call, and this member is the one who re-keys it when a guest leaves. */
    leadsRekey: ({ context, event }) => context.secret !== null && event.type === 'door.guestLeft' && event.lead,
    ownRoom: ({ context, event }) => event.type === 'door.waiting' && event.room === context.room,
    notHeard: ({ context }) => !context.heard,
    rang: ({ context, event }) => event.type === 'door.waiting' && event.room === context.room && event.ring,
  },
  actions: {
    takeWaiting: assign({
      waiting: ({ event }) => {
        assertEvent(event, 'door.waiting');
        return event.guests;
      },
      heard: true,
    }),
    takeAck: assign((_, ack: Ack) => ({ error: ack.ok ? null : ack.message })),
  },
}).createMachine({
  id: 'guestDoor',
  context: ({ input }) => ({
    room: input.room,
    secret: input.secret ?? null,
    waiting: [],
    heard: false,
    link: null,
    error: null,
  }),
  invoke: [
    { src: 'serverEvents', input: ({ context }) => context.secret },
    {
      id: 'loadWaiting',
      src: 'loadWaiting',
      input: ({ context }) => ({ room: context.room, ...(context.secret ? { secret: context.secret } : {}) }),
      onDone: { guard: 'notHeard', actions: assign({ waiting: ({ event }) => event.output }) },
      // 403 for a member who does not decide: nobody is shown.
      onError: { actions: [] },
    },
  ],
  on: {
    'door.waiting': [
      { guard: 'rang', actions: ['takeWaiting', emit({ type: 'door.rang' } as const)] },
      { guard: 'ownRoom', actions: 'takeWaiting' },
    ],
    'door.dismissError': { actions: assign({ error: null }) },
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'door.guestLeft': { guard: 'leadsRekey', target: 'rekeying' },
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
        input: ({ context }) => ({
          room: context.room,
          hours: CALL_LINK_HOURS,
          ...(context.secret ? { secret: context.secret } : {}),
        }),
        onDone: { target: 'idle', actions: assign({ link: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => failureMessage(event.error, DOOR_TEXTS.linkFailed) }),
        },
      },
    },
    rekeying: {
      invoke: {
        id: 'rekey',
        src: 'rekey',
        input: ({ context, event }) => {
          assertEvent(event, 'door.guestLeft');
          return { secret: context.secret as SecretDoor, knockId: event.knockId };
        },
        onDone: 'idle',
        onError: 'idle',
      },
    },
    deciding: {
      tags: [DOOR_TAGS.busy],
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context, event }) => {
          if (event.type === 'door.admit') return decision('guest:admit', event.knockId, context);
          if (event.type === 'door.deny') return decision('guest:deny', event.knockId, context);
          assertEvent(event, 'door.remove');
          return decision('guest:remove', event.knockId, context);
        },
        onDone: { target: 'idle', actions: { type: 'takeAck', params: ({ event }) => event.output } },
      },
    },
  },
});
