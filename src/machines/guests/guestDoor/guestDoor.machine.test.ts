import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { CALL_LINK_HOURS, DOOR_TAGS, DOOR_TEXTS, type GuestLink, guestDoorMachine, NO_KEYS } from './guestDoor.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const quiet = fromCallback(() => () => {}) as never;
const room = 'conv-c1';
const anna = { id: 'k1', name: 'Анна', knockedAt: '2030-01-01T00:00:00.000Z' };
const link: GuestLink = {
  code: 'c'.repeat(24),
  room,
  conversationId: 'c1',
  createdAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-02T00:00:00.000Z',
  createdBy: { id: 'u1', displayName: 'Борис' },
};
const linkSecret = new Uint8Array(32).fill(7);
const vouched = { linkSecret, e2ee: { code: link.code, epoch: 3, publicKey: 'p'.repeat(43), mac: 'm'.repeat(43) } };
const ADMINS = 'В этой группе гостей впускают только владелец и администраторы';

describeModel({
  name: 'guestDoor',
  machine: guestDoorMachine.provide({
    actors: { serverEvents: quiet, session: quiet, loadWaiting: hang, createLink: hang, decide: hang },
  }),
  inputs: [{ room }, { room, secret: { userId: 'u1', conversationId: 'c1' } }],
  events: {
    'door.keys.linkSecret': () => [{ type: 'door.keys.linkSecret', code: link.code, linkSecret }],
    'door.keys.waiting': () => [{ type: 'door.keys.waiting', knockIds: ['k1'] }],
    'door.keys.vouched': () => [{ type: 'door.keys.vouched', knockId: 'k1', vouched }],
    'door.keys.admitted': () => [{ type: 'door.keys.admitted', knockId: 'k1', vouched }],
    'door.keys.gone': () => [{ type: 'door.keys.gone', knockId: 'k1' }],
    'door.admit': () => [{ type: 'door.admit', knockId: 'k1' }],
    'door.deny': () => [{ type: 'door.deny', knockId: 'k1' }],
    'door.remove': () => [{ type: 'door.remove', knockId: 'k1' }],
    'door.waiting': () => [
      { type: 'door.waiting', room, guests: [anna], ring: true },
      { type: 'door.waiting', room, guests: [], ring: false },
      { type: 'door.waiting', room: 'conv-other', guests: [anna], ring: true },
    ],
    'xstate.done.actor.loadWaiting': () => [{ type: 'xstate.done.actor.loadWaiting', output: [anna] }],
    'xstate.error.actor.loadWaiting': () => [
      { type: 'xstate.error.actor.loadWaiting', error: new RequestFailure(403, ADMINS) },
    ],
    'xstate.done.actor.createLink': () => [{ type: 'xstate.done.actor.createLink', output: link }],
    'xstate.error.actor.createLink': () => [
      { type: 'xstate.error.actor.createLink', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.decide': () => [
      { type: 'xstate.done.actor.decide', output: { ok: true } },
      { type: 'xstate.done.actor.decide', output: { ok: false, message: ADMINS } },
    ],
  },
  contextKey: (c) => ({
    waiting: c.waiting.length,
    heard: c.heard,
    link: c.link !== null,
    error: c.error,
    secret: c.secret !== null,
  }),
});

function start(secret: { userId: string; conversationId: string } | null = null) {
  const sent: unknown[] = [];
  const made: unknown[] = [];
  const actor = createActor(
    guestDoorMachine.provide({
      actors: {
        serverEvents: quiet,
        session: quiet,
        loadWaiting: fromPromise(async () => []) as never,
        createLink: fromPromise(async ({ input }) => {
          made.push(input);
          return link;
        }) as never,
        decide: fromPromise(async ({ input }) => {
          sent.push(input);
          return { ok: true };
        }) as never,
      },
    }),
    { input: { room, secret } },
  ).start();
  const rings: unknown[] = [];
  actor.on('door.rang', (e) => rings.push(e));
  return { actor, sent, made, rings };
}

describe('guestDoor while it first asks who waits', () => {
  /** A door whose first question the test answers when it likes. */
  function slowLoad() {
    let answer: (guests: (typeof anna)[]) => void = () => {};
    const made: unknown[] = [];
    const actor = createActor(
      guestDoorMachine.provide({
        actors: {
          serverEvents: quiet,
          loadWaiting: fromPromise(() => new Promise((resolve) => (answer = resolve))) as never,
          createLink: fromPromise(async ({ input }) => {
            made.push(input);
            return link;
          }) as never,
          decide: hang,
        },
      }),
      { input: { room } },
    ).start();
    return { actor, made, answer: (guests: (typeof anna)[]) => answer(guests) };
  }

  it('makes the link when asked before the answer came', async () => {
    const door = slowLoad();
    door.actor.send({ type: 'door.invite' });
    await waitFor(door.actor, (s) => s.context.link !== null);
    expect(door.made).toEqual([{ room, hours: CALL_LINK_HOURS }]);
  });

  it('keeps a knock heard over the socket when the older answer comes after it', async () => {
    const door = slowLoad();
    door.actor.send({ type: 'door.waiting', room, guests: [anna], ring: true });
    door.answer([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(door.actor.getSnapshot().context.waiting).toEqual([anna]);
  });
});

describe('guestDoor with a server', () => {
  it('shows who knocks at its own room, rings for new knocks only, and sends the decisions', async () => {
    const door = start();
    await waitFor(door.actor, (s) => s.value === 'idle');
    door.actor.send({ type: 'door.waiting', room: 'conv-other', guests: [anna], ring: true });
    expect(door.actor.getSnapshot().context.waiting).toEqual([]);
    door.actor.send({ type: 'door.waiting', room, guests: [anna], ring: true });
    expect(door.actor.getSnapshot().context.waiting).toEqual([anna]);
    expect(door.rings).toHaveLength(1);
    door.actor.send({ type: 'door.admit', knockId: 'k1' });
    expect(door.actor.getSnapshot().hasTag(DOOR_TAGS.busy)).toBe(true);
    await waitFor(door.actor, (s) => s.value === 'idle');
    door.actor.send({ type: 'door.waiting', room, guests: [], ring: false });
    expect(door.rings).toHaveLength(1);
    door.actor.send({ type: 'door.remove', knockId: 'k1' });
    await waitFor(door.actor, (s) => s.value === 'idle');
    expect(door.sent).toEqual([
      { name: 'guest:admit', payload: { knockId: 'k1' } },
      { name: 'guest:remove', payload: { knockId: 'k1' } },
    ]);
  });

  it('at a secret chat’s call hands the wiring what to seal and whom to re-key for', async () => {
    const secret = { userId: 'u1', conversationId: 'c1' };
    const e2ee = { code: link.code, epoch: 3, publicKey: 'p'.repeat(43), mac: 'm'.repeat(43) };
    const guest = { ...anna, e2ee };
    const door = start(secret);
    await waitFor(door.actor, (s) => s.value === 'idle');
    door.actor.send({ type: 'door.invite' });
    await waitFor(door.actor, (s) => s.context.link !== null);
    expect(door.made).toEqual([{ room, hours: CALL_LINK_HOURS, secret }]);
    door.actor.send({ type: 'door.waiting', room, guests: [guest], ring: true });
    for (const type of ['door.admit', 'door.deny', 'door.remove'] as const) {
      door.actor.send({ type, knockId: 'k1' });
      await waitFor(door.actor, (s) => s.value === 'idle');
    }
    expect(door.sent).toEqual([
      { name: 'guest:admit', payload: { knockId: 'k1' }, e2ee: { secret, guest, link } },
      { name: 'guest:deny', payload: { knockId: 'k1' } },
      { name: 'guest:remove', payload: { knockId: 'k1' }, e2ee: { secret, guest, link } },
    ]);
  });

  it('makes the call’s link for a day', async () => {
    const door = start();
    await waitFor(door.actor, (s) => s.value === 'idle');
    door.actor.send({ type: 'door.invite' });
    await waitFor(door.actor, (s) => s.context.link !== null);
    expect(door.made).toEqual([{ room, hours: CALL_LINK_HOURS }]);
    expect(DOOR_TEXTS.linkFailed).toMatch(/ссылку/);
  });
});

describe('guestDoor’s keys at a secret chat’s call', () => {
  const secret = { userId: 'u1', conversationId: 'c1' };
  /** A door whose session the test signs out when it likes. */
  function keyed() {
    let signOut: () => void = () => {};
    const actor = createActor(
      guestDoorMachine.provide({
        actors: {
          serverEvents: quiet,
          session: fromCallback(({ sendBack }) => {
            sendBack({ type: 'door.signedIn', userId: 'u1' });
            signOut = () => sendBack({ type: 'door.signedOut' });
          }) as never,
          loadWaiting: fromPromise(async () => []) as never,
          createLink: hang,
          decide: hang,
        },
      }),
      { input: { room, secret } },
    ).start();
    return { actor, signOut: () => signOut() };
  }

  it('keeps the link secrets, who waits and whom this page vouched for, as the wiring tells it', async () => {
    const door = keyed();
    await waitFor(door.actor, (s) => s.value === 'idle');
    expect(door.actor.getSnapshot().context.keys).toEqual(NO_KEYS);
    door.actor.send({ type: 'door.keys.linkSecret', code: link.code, linkSecret });
    door.actor.send({ type: 'door.keys.waiting', knockIds: ['k1', 'k2'] });
    door.actor.send({ type: 'door.keys.vouched', knockId: 'k2', vouched });
    door.actor.send({ type: 'door.keys.admitted', knockId: 'k1', vouched });
    expect(door.actor.getSnapshot().context.keys).toEqual({
      linkSecrets: { [link.code]: linkSecret },
      vouched: { k1: vouched, k2: vouched },
      waitingNow: ['k2'],
    });
    door.actor.send({ type: 'door.keys.gone', knockId: 'k2' });
    expect(Object.keys(door.actor.getSnapshot().context.keys.vouched)).toEqual(['k1']);
  });

  it('drops every key on sign-out', async () => {
    const door = keyed();
    await waitFor(door.actor, (s) => s.value === 'idle');
    door.actor.send({ type: 'door.keys.linkSecret', code: link.code, linkSecret });
    door.actor.send({ type: 'door.keys.admitted', knockId: 'k1', vouched });
    door.actor.send({ type: 'door.keys.gone', knockId: 'k2' });
    door.actor.send({ type: 'door.keys.waiting', knockIds: ['k3'] });
    door.signOut();
    expect(door.actor.getSnapshot().context.keys).toEqual(NO_KEYS);
  });
});
