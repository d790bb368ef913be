// The members' side of guest links (protocol: guestDoor.protocol.ts; docs/behaviour.md §10.40). It hears
// `guest:waiting` for its room, asks once who already waits (a member who joined after the knock), makes the
// call's link (POST /api/guest-links) and sends the decisions over the socket (`guest:admit`, `guest:deny`,
// `guest:remove`), whose refusals it shows. A ring is emitted for the view's sound. That first question runs
// beside the rest: «Пригласить по ссылке» works while it is on its way, and a `guest:waiting` heard meanwhile is
// not overwritten by its older answer. At a secret chat's call it also keeps what the wiring needs to seal the call
// key to guests (`keys`: link secrets, guests vouched for), told through `door.keys.*` and dropped on sign-out.
import { assertEvent, assign, emit, setup } from 'xstate';
import type { Ack } from '../../../contract/events';
import { failureMessage } from '../../../contract/failure';
import { listenToServer, type ServerRequestInput } from '../../realtime/index';
import { watchSignedInUser } from '../../session/index';
import { notWired } from '../../shared/not-wired';
import {
  CALL_LINK_HOURS,
  DOOR_TAGS,
  DOOR_TEXTS,
  type DoorDecision,
  type DoorKeys,
  type GuestDoorContext,
  type GuestDoorEffects,
  type GuestDoorEmitted,
  type GuestDoorEvent,
  type GuestDoorInput,
  NO_KEYS,
  type SecretDoor,
} from './guestDoor.protocol';

export * from './guestDoor.protocol';

export const guestDoorServerEvents = listenToServer<GuestDoorEvent, SecretDoor | null>({
  'guest:waiting': (p) => ({ type: 'door.waiting', room: p.room, guests: p.guests, ring: p.ring }),
});

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

const without = <T>(record: Record<string, T>, key: string) => {
  const { [key]: _gone, ...rest } = record;
  return rest;
};

/** The keys after one of the wiring's `door.keys.*` events. */
function nextKeys(keys: DoorKeys, event: GuestDoorEvent): DoorKeys {
  switch (event.type) {
    case 'door.keys.linkSecret':
      return { ...keys, linkSecrets: { ...keys.linkSecrets, [event.code]: event.linkSecret } };
    case 'door.keys.waiting':
      return { ...keys, waitingNow: event.knockIds };
    case 'door.keys.vouched':
      return { ...keys, vouched: { ...keys.vouched, [event.knockId]: event.vouched } };
    case 'door.keys.admitted':
      return {
        ...keys,
        vouched: { ...keys.vouched, [event.knockId]: event.vouched },
        waitingNow: keys.waitingNow.filter((id) => id !== event.knockId),
      };
    case 'door.keys.gone':
      return { ...keys, vouched: without(keys.vouched, event.knockId) };
    default:
      return keys;
  }
}

export const guestDoorMachine = setup({
  types: {
    context: {} as GuestDoorContext,
    events: {} as GuestDoorEvent,
    input: {} as GuestDoorInput,
    emitted: {} as GuestDoorEmitted,
  },
  actors: {
    /** `guest:waiting`; at a secret chat's call the wiring checks each guest's key first (`Waiting.check`). */
    serverEvents: guestDoorServerEvents as GuestDoorEffects['serverEvents'],
    loadWaiting: notWired('guestDoor.loadWaiting') as GuestDoorEffects['loadWaiting'],
    createLink: notWired('guestDoor.createLink') as GuestDoorEffects['createLink'],
    decide: notWired('guestDoor.decide') as GuestDoorEffects['decide'],
    /** Who is signed in: a sign-out drops the keys. */
    session: watchSignedInUser('door.signedIn', 'door.signedOut'),
  },
  guards: {
    secretCall: ({ context }) => context.secret !== null,
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
    takeKeys: assign(({ context, event }) => ({ keys: nextKeys(context.keys, event) })),
    dropKeys: assign({ keys: NO_KEYS }),
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
    keys: NO_KEYS,
  }),
  invoke: [
    { src: 'serverEvents', input: ({ context }) => context.secret },
    { src: 'session' },
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
    'door.signedOut': { actions: 'dropKeys' },
    'door.keys.linkSecret': { actions: 'takeKeys' },
    'door.keys.waiting': { actions: 'takeKeys' },
    'door.keys.vouched': { actions: 'takeKeys' },
    'door.keys.admitted': { actions: 'takeKeys' },
    'door.keys.gone': { actions: 'takeKeys' },
  },
  initial: 'idle',
  states: {
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
