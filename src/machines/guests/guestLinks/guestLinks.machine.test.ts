import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { type GuestLink, guestLinksMachine, LINKS_TAGS, LINKS_TEXTS } from './guestLinks.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const quiet = fromCallback(() => () => {}) as never;
const room = 'conv-g1';
const link = (code: string): GuestLink => ({
  code: code.padEnd(24, 'x'),
  room,
  conversationId: 'g1',
  createdAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-02T00:00:00.000Z',
  createdBy: { id: 'u1', displayName: 'Анна' },
});
const refused = new RequestFailure(403, 'Выбрать, кто впускает гостей, могут владелец и администраторы');

describeModel({
  name: 'guestLinks',
  machine: guestLinksMachine.provide({
    actors: {
      linkChanges: quiet,
      loadLinks: hang,
      createLink: hang,
      revokeLink: hang,
      copyLink: hang,
      saveAdmission: hang,
    },
  }),
  inputs: [{ room }],
  contextKey: (c) =>
    `${c.links.length}|${c.adminsOnly}|${c.enabled}|${c.code ?? ''}|${c.hours}|${c.admission}|${c.stale}|${c.error ? 'e' : ''}`,
  events: {
    'links.changed': () => [{ type: 'links.changed' }],
    'links.create': () => [{ type: 'links.create', hours: 1 }],
    'links.revoke': () => [{ type: 'links.revoke', code: 'k1' }],
    'links.copy': () => [{ type: 'links.copy', code: 'k1' }],
    'links.admission': () => [{ type: 'links.admission', adminsOnly: true }],
    'links.reload': () => [{ type: 'links.reload' }],
    'xstate.done.actor.loadLinks': () => [
      { type: 'xstate.done.actor.loadLinks', output: { links: [link('k1')], adminsOnly: false, enabled: true } },
      { type: 'xstate.done.actor.loadLinks', output: { links: [], adminsOnly: true, enabled: false } },
    ],
    'xstate.error.actor.loadLinks': () => [{ type: 'xstate.error.actor.loadLinks', error: refused }],
    'xstate.done.actor.createLink': () => [{ type: 'xstate.done.actor.createLink', output: {} }],
    'xstate.error.actor.createLink': () => [{ type: 'xstate.error.actor.createLink', error: refused }],
    'xstate.done.actor.revokeLink': () => [{ type: 'xstate.done.actor.revokeLink', output: {} }],
    'xstate.error.actor.revokeLink': () => [{ type: 'xstate.error.actor.revokeLink', error: refused }],
    'xstate.done.actor.copyLink': () => [{ type: 'xstate.done.actor.copyLink', output: undefined }],
    'xstate.error.actor.copyLink': () => [{ type: 'xstate.error.actor.copyLink', error: new Error('denied') }],
    'xstate.done.actor.saveAdmission': () => [
      { type: 'xstate.done.actor.saveAdmission', output: { adminsOnly: true } },
    ],
    'xstate.error.actor.saveAdmission': () => [{ type: 'xstate.error.actor.saveAdmission', error: refused }],
  },
});

afterEach(() => vi.useRealTimers());

describe('guestLinks with a server', () => {
  it('lists, makes for the chosen term, copies (the notice runs out), revokes and saves who lets guests in', async () => {
    vi.useFakeTimers();
    let server = [link('k1')];
    let adminsOnly = false;
    const made: unknown[] = [];
    const copied: string[] = [];
    const saved: unknown[] = [];
    const actor = createActor(
      guestLinksMachine.provide({
        actors: {
          linkChanges: quiet,
          loadLinks: fromPromise(async () => ({ links: server, adminsOnly, enabled: true })) as never,
          createLink: fromPromise(async ({ input }: { input: unknown }) => {
            made.push(input);
            server = [link('k2'), ...server];
            return {};
          }) as never,
          revokeLink: fromPromise(async ({ input }: { input: { code: string } }) => {
            server = server.filter((l) => l.code !== input.code);
            return {};
          }) as never,
          copyLink: fromPromise(async ({ input }: { input: { code: string } }) => {
            copied.push(input.code);
          }) as never,
          saveAdmission: fromPromise(async ({ input }: { input: { conversationId: string; adminsOnly: boolean } }) => {
            saved.push(input);
            adminsOnly = input.adminsOnly;
            return { adminsOnly };
          }) as never,
        },
      }),
      { input: { room } },
    ).start();
    const settle = () => vi.advanceTimersByTimeAsync(0);
    const codes = () => actor.getSnapshot().context.links.map((l) => l.code[1]);
    await settle();
    expect(codes()).toEqual(['1']);
    actor.send({ type: 'links.create', hours: 168 });
    expect(actor.getSnapshot().hasTag(LINKS_TAGS.busy)).toBe(true);
    await settle();
    expect(made).toEqual([{ room, hours: 168 }]);
    expect(codes()).toEqual(['2', '1']);
    actor.send({ type: 'links.copy', code: link('k2').code });
    await settle();
    expect(actor.getSnapshot().hasTag(LINKS_TAGS.copied)).toBe(true);
    expect(copied).toEqual([link('k2').code]);
    await vi.advanceTimersByTimeAsync(TIMINGS.successMessageMs);
    expect(actor.getSnapshot().hasTag(LINKS_TAGS.copied)).toBe(false);
    actor.send({ type: 'links.revoke', code: link('k1').code });
    await settle();
    expect(codes()).toEqual(['2']);
    actor.send({ type: 'links.admission', adminsOnly: true });
    await settle();
    expect(saved).toEqual([{ conversationId: 'g1', adminsOnly: true }]);
    expect(actor.getSnapshot().context.adminsOnly).toBe(true);
  });

  it('says why the list or a change failed, in the server’s words where it gave some', async () => {
    const actor = createActor(
      guestLinksMachine.provide({
        actors: {
          linkChanges: quiet,
          loadLinks: fromPromise(async () => {
            throw new Error('offline');
          }) as never,
          saveAdmission: fromPromise(async () => {
            throw refused;
          }) as never,
        },
      }),
      { input: { room } },
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe(LINKS_TEXTS.loadFailed));
    actor.send({ type: 'links.admission', adminsOnly: true });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe(refused.message));
    expect(actor.getSnapshot().context.adminsOnly).toBe(false);
  });

  it('reads the list again when someone else makes or revokes a link of the room, after a request that runs', async () => {
    vi.useFakeTimers();
    let server = [link('k1')];
    const hooks: { tell?: () => void; finishSave?: () => void } = {};
    const asked: string[] = [];
    const actor = createActor(
      guestLinksMachine.provide({
        actors: {
          linkChanges: fromCallback(({ input, sendBack }) => {
            asked.push((input as { room: string }).room);
            hooks.tell = () => sendBack({ type: 'links.changed' });
            return () => {};
          }) as never,
          loadLinks: fromPromise(async () => ({ links: server, adminsOnly: false, enabled: true })) as never,
          saveAdmission: fromPromise(
            () =>
              new Promise<{ adminsOnly: boolean }>((resolve) => {
                hooks.finishSave = () => resolve({ adminsOnly: true });
              }),
          ) as never,
        },
      }),
      { input: { room } },
    ).start();
    const settle = () => vi.advanceTimersByTimeAsync(0);
    const codes = () => actor.getSnapshot().context.links.map((l) => l.code[1]);
    await settle();
    expect(asked).toEqual([room]);
    expect(codes()).toEqual(['1']);
    server = [link('k2'), ...server];
    hooks.tell?.();
    await settle();
    expect(codes()).toEqual(['2', '1']);
    // Heard while «Кто впускает гостей» is being saved: the list is read once that is done.
    actor.send({ type: 'links.admission', adminsOnly: true });
    server = [link('k2')];
    hooks.tell?.();
    await settle();
    expect(codes()).toEqual(['2', '1']);
    hooks.finishSave?.();
    await settle();
    expect(codes()).toEqual(['2']);
    expect(actor.getSnapshot().context.stale).toBe(false);
  });

  it('knows a named room has no conversation', () => {
    const actor = createActor(guestLinksMachine.provide({ actors: { linkChanges: quiet, loadLinks: hang } }), {
      input: { room: 'кухня' },
    }).start();
    expect(actor.getSnapshot().context.conversationId).toBeNull();
  });
});
