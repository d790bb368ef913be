import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { GUEST } from '../../../contract/guest-rules';
import {
  GUEST_TAGS,
  GUEST_TEXTS,
  type GuestLinkInfo,
  type GuestMedia,
  guestNameProblem,
  guestPageMachine,
} from './guestPage.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const quiet = fromCallback(() => () => {}) as never;
const info: GuestLinkInfo = { title: 'Семья', host: 'Анна', expiresAt: '2030-01-01T00:00:00.000Z' };
const media: GuestMedia = { token: 'jwt', url: 'ws://x', room: 'conv-1', expiresAt: '2030-01-01T00:00:00.000Z' };
const knock = { knockId: 'k1', secret: 's'.repeat(43) };
const callKey = (epoch: number) => ({ epoch, key: new Uint8Array(32).fill(epoch), shortCode: '123 456' });
const GONE = 'Ссылка больше не действует';
const FLOOD = 'По этой ссылке сейчас слишком много желающих войти. Попробуйте через минуту.';

describeModel({
  name: 'guestPage',
  machine: guestPageMachine.provide({
    actors: { loadInfo: hang, knock: hang, door: quiet, fetchToken: hang, leave: hang },
  }),
  inputs: [{ code: 'c'.repeat(24) }],
  events: {
    'guest.knock': () => [
      { type: 'guest.knock', name: 'Бабушка', video: true, audio: true },
      { type: 'guest.knock', name: '  ', video: false, audio: true },
    ],
    'guest.state': () => [
      ...(['waiting', 'admitted', 'denied', 'removed', 'gone', 'ended'] as const).map((state) => ({
        type: 'guest.state',
        state,
      })),
      { type: 'guest.state', state: 'admitted', key: callKey(3) },
      { type: 'guest.state', state: 'admitted', keyFailed: true },
    ],
    'guest.again': () => [{ type: 'guest.again' }],
    'guest.key': () => [
      { type: 'guest.key', key: callKey(4) },
      { type: 'guest.key', key: callKey(2) },
    ],
    'xstate.done.actor.loadInfo': () => [{ type: 'xstate.done.actor.loadInfo', output: info }],
    'xstate.error.actor.loadInfo': () => [
      { type: 'xstate.error.actor.loadInfo', error: new RequestFailure(410, GONE) },
      { type: 'xstate.error.actor.loadInfo', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.knock': () => [{ type: 'xstate.done.actor.knock', output: knock }],
    'xstate.error.actor.knock': () => [
      { type: 'xstate.error.actor.knock', error: new RequestFailure(429, FLOOD) },
      { type: 'xstate.error.actor.knock', error: new RequestFailure(410, GONE) },
      { type: 'xstate.error.actor.knock', error: new RequestFailure(500, null) },
    ],
    'xstate.done.actor.fetchToken': () => [{ type: 'xstate.done.actor.fetchToken', output: media }],
    'xstate.error.actor.fetchToken': () => [
      { type: 'xstate.error.actor.fetchToken', error: new RequestFailure(403, GUEST_TEXTS.removed) },
      { type: 'xstate.error.actor.fetchToken', error: new RequestFailure(410, GUEST_TEXTS.callOver) },
      { type: 'xstate.error.actor.fetchToken', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.leave': () => [{ type: 'xstate.done.actor.leave', output: { ok: true } }],
    'xstate.error.actor.leave': () => [{ type: 'xstate.error.actor.leave', error: new RequestFailure(null, null) }],
  },
});

function start(answers: { info?: Error[]; knock?: Error[]; token?: (Error | null)[] } = {}) {
  const knocks: unknown[] = [];
  let tell: ((state: string) => void) | null = null;
  let doorOpen = false;
  const infoFailures = [...(answers.info ?? [])];
  const knockFailures = [...(answers.knock ?? [])];
  const tokenFailures = [...(answers.token ?? [])];
  const actor = createActor(
    guestPageMachine.provide({
      actors: {
        loadInfo: fromPromise(async () => {
          const failure = infoFailures.shift();
          if (failure) throw failure;
          return info;
        }) as never,
        knock: fromPromise(async ({ input }) => {
          knocks.push(input);
          const failure = knockFailures.shift();
          if (failure) throw failure;
          return knock;
        }) as never,
        door: fromCallback(({ sendBack }) => {
          doorOpen = true;
          tell = (state) => sendBack({ type: 'guest.state', state });
          return () => {
            doorOpen = false;
          };
        }) as never,
        fetchToken: fromPromise(async () => {
          const failure = tokenFailures.shift();
          if (failure) throw failure;
          return media;
        }) as never,
        leave: fromPromise(async () => ({ ok: true })) as never,
      },
    }),
    { input: { code: 'c'.repeat(24) } },
  ).start();
  return { actor, knocks, tell: (state: string) => tell?.(state), doorOpen: () => doorOpen };
}

describe('guestPage with a server', () => {
  it('knocks with the name, waits in the lobby, is let in and joins the call; leaving ends the page', async () => {
    const page = start();
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.form));
    expect(page.actor.getSnapshot().context.info).toEqual(info);
    page.actor.send({ type: 'guest.knock', name: '', video: true, audio: true });
    expect(page.actor.getSnapshot().context.error).toBe(GUEST_TEXTS.nameMissing);
    page.actor.send({ type: 'guest.knock', name: ' Бабушка ', video: false, audio: true });
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.lobby));
    expect(page.knocks).toEqual([{ code: 'c'.repeat(24), name: 'Бабушка', encrypted: false, fragment: '' }]);
    expect(page.doorOpen()).toBe(true);
    page.tell('waiting');
    expect(page.actor.getSnapshot().hasTag(GUEST_TAGS.lobby)).toBe(true);
    page.tell('admitted');
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.call));
    expect(page.actor.getSnapshot().context).toMatchObject({ media, video: false, audio: true });
    page.actor.send({ type: 'guest.left' });
    expect(page.actor.getSnapshot().hasTag(GUEST_TAGS.ended)).toBe(true);
    expect(page.actor.getSnapshot().context.error).toBe(GUEST_TEXTS.left);
    expect(page.doorOpen()).toBe(false);
  });

  it('says clearly when turned away, removed from the call, or the link died', async () => {
    for (const [state, text] of [
      ['denied', GUEST_TEXTS.denied],
      ['removed', GUEST_TEXTS.removed],
      ['gone', GUEST_TEXTS.gone],
    ] as const) {
      const page = start();
      await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.form));
      page.actor.send({ type: 'guest.knock', name: 'Сантехник', video: true, audio: true });
      await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.lobby));
      if (state === 'removed') {
        page.tell('admitted');
        await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.call));
      }
      page.tell(state);
      expect(page.actor.getSnapshot().hasTag(GUEST_TAGS.ended)).toBe(true);
      expect(page.actor.getSnapshot().context.error).toBe(text);
      expect(page.doorOpen()).toBe(false);
    }
  });

  it('says «Звонок завершён» when the call is over and knocks anew with the same name on «Попросить войти снова»', async () => {
    const page = start({ token: [null, new RequestFailure(410, GUEST_TEXTS.callOver)] });
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.form));
    page.actor.send({ type: 'guest.knock', name: 'Бабушка', video: false, audio: true });
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.lobby));
    page.tell('admitted');
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.call));
    page.tell('ended');
    expect(page.actor.getSnapshot().hasTag(GUEST_TAGS.ended)).toBe(true);
    expect(page.actor.getSnapshot().hasTag(GUEST_TAGS.again)).toBe(true);
    expect(page.actor.getSnapshot().context).toMatchObject({ error: GUEST_TEXTS.callOver, media: null });
    expect(page.doorOpen()).toBe(false);
    page.actor.send({ type: 'guest.again' });
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.lobby));
    expect(page.knocks).toHaveLength(2);
    expect(page.knocks[1]).toEqual({ code: 'c'.repeat(24), name: 'Бабушка', encrypted: false, fragment: '' });
    expect(page.actor.getSnapshot().context.video).toBe(false);
    // Let in again, but the call ended before the token came: the same outcome, from the token route.
    page.tell('admitted');
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.again));
    expect(page.actor.getSnapshot().context.error).toBe(GUEST_TEXTS.callOver);
  });

  it('a dead link ends the page at once; a flooded one asks to try again; no answer offers a retry', async () => {
    const dead = start({ info: [new RequestFailure(410, GONE)] });
    await waitFor(dead.actor, (s) => s.hasTag(GUEST_TAGS.ended));
    expect(dead.actor.getSnapshot().context.error).toBe(GONE);
    const flooded = start({ knock: [new RequestFailure(429, FLOOD)] });
    await waitFor(flooded.actor, (s) => s.hasTag(GUEST_TAGS.form));
    flooded.actor.send({ type: 'guest.knock', name: 'Оля', video: true, audio: true });
    await waitFor(flooded.actor, (s) => s.hasTag(GUEST_TAGS.form) && !s.hasTag(GUEST_TAGS.busy));
    expect(flooded.actor.getSnapshot().context.error).toBe(FLOOD);
    const offline = start({ info: [new RequestFailure(null, null)] });
    await waitFor(offline.actor, (s) => s.value === 'unreachable');
    offline.actor.send({ type: 'guest.retry' });
    await waitFor(offline.actor, (s) => s.hasTag(GUEST_TAGS.form));
  });

  it('«Отменить» stops waiting and keeps the form; a failed join can be retried', async () => {
    const page = start({ token: [new RequestFailure(null, null)] });
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.form));
    page.actor.send({ type: 'guest.knock', name: 'Оля', video: true, audio: true });
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.lobby));
    page.tell('admitted');
    await waitFor(page.actor, (s) => s.context.error === GUEST_TEXTS.joinFailed);
    page.actor.send({ type: 'guest.retry' });
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.call));
    const other = start();
    await waitFor(other.actor, (s) => s.hasTag(GUEST_TAGS.form));
    other.actor.send({ type: 'guest.knock', name: 'Оля', video: true, audio: true });
    await waitFor(other.actor, (s) => s.hasTag(GUEST_TAGS.lobby));
    other.actor.send({ type: 'guest.cancel' });
    await waitFor(other.actor, (s) => s.hasTag(GUEST_TAGS.form) && !s.hasTag(GUEST_TAGS.busy));
    expect(other.actor.getSnapshot().context.knock).toBeNull();
    expect(other.doorOpen()).toBe(false);
  });

  it('at a secret chat’s link: joins with the opened key, takes only newer ones, and ends when it did not open', async () => {
    const page = start();
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.form));
    page.actor.send({ type: 'guest.knock', name: 'Оля', video: true, audio: true });
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.lobby));
    page.actor.send({ type: 'guest.state', state: 'admitted', key: callKey(3) });
    await waitFor(page.actor, (s) => s.hasTag(GUEST_TAGS.call));
    expect(page.actor.getSnapshot().context.callKey?.epoch).toBe(3);
    page.actor.send({ type: 'guest.key', key: callKey(2) });
    expect(page.actor.getSnapshot().context.callKey?.epoch).toBe(3);
    page.actor.send({ type: 'guest.key', key: callKey(5) });
    expect(page.actor.getSnapshot().context.callKey?.epoch).toBe(5);
    page.actor.send({ type: 'guest.state', state: 'removed' });
    expect(page.actor.getSnapshot().context.callKey).toBeNull();

    const broken = start();
    await waitFor(broken.actor, (s) => s.hasTag(GUEST_TAGS.form));
    broken.actor.send({ type: 'guest.knock', name: 'Оля', video: true, audio: true });
    await waitFor(broken.actor, (s) => s.hasTag(GUEST_TAGS.lobby));
    broken.actor.send({ type: 'guest.state', state: 'admitted', keyFailed: true });
    expect(broken.actor.getSnapshot().hasTag(GUEST_TAGS.ended)).toBe(true);
    expect(broken.actor.getSnapshot().context.error).toBe(GUEST_TEXTS.keyFailed);
  });

  it('checks the name as the server does', () => {
    expect(guestNameProblem('Аня')).toBeNull();
    expect(guestNameProblem('   ')).toBe(GUEST_TEXTS.nameMissing);
    expect(guestNameProblem('я'.repeat(GUEST.nameMax + 1))).toBe(GUEST_TEXTS.nameTooLong);
  });
});
