import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import {
  PASSKEY_ADD_FAILED,
  PASSKEY_ADDED,
  PASSKEY_REMOVED,
  type Passkey,
  PASSKEYS_LOAD_FAILED,
  passkeysMachine,
} from './passkeys.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const key = (id: string, name = 'Ноутбук'): Passkey => ({
  id,
  name,
  createdAt: '2026-11-28T09:00:00.000Z',
  lastUsedAt: null,
});

describeModel({
  name: 'passkeys',
  machine: passkeysMachine.provide({
    actors: { loadPasskeys: hang, addPasskey: hang, renamePasskey: hang, removePasskey: hang },
  }),
  events: {
    'passkeys.add': () => [{ type: 'passkeys.add', name: 'Ноутбук', password: 'пароль' }],
    'passkeys.rename': () => [{ type: 'passkeys.rename', id: 'k1', name: 'Телефон' }],
    'passkeys.remove': () => [{ type: 'passkeys.remove', id: 'k1', password: 'пароль' }],
    'passkeys.retry': () => [{ type: 'passkeys.retry' }],
    'passkeys.openRename': () => [{ type: 'passkeys.openRename', id: 'k1' }],
    'passkeys.openRemove': () => [{ type: 'passkeys.openRemove', id: 'k1' }],
    'passkeys.closeForm': () => [{ type: 'passkeys.closeForm', id: 'k1' }],
    'xstate.done.actor.0.passkeys.loading': () => [
      { type: 'xstate.done.actor.0.passkeys.loading', output: [] },
      { type: 'xstate.done.actor.0.passkeys.loading', output: [key('k1')] },
    ],
    'xstate.error.actor.0.passkeys.loading': () => [
      { type: 'xstate.error.actor.0.passkeys.loading', error: new Error('offline') },
    ],
    'xstate.done.actor.0.passkeys.adding': () => [{ type: 'xstate.done.actor.0.passkeys.adding', output: key('k2') }],
    'xstate.error.actor.0.passkeys.adding': () => [
      { type: 'xstate.error.actor.0.passkeys.adding', error: new RequestFailure(400, 'Неверный пароль') },
      { type: 'xstate.error.actor.0.passkeys.adding', error: new Error('NotAllowedError') },
    ],
    'xstate.done.actor.0.passkeys.renaming': () => [{ type: 'xstate.done.actor.0.passkeys.renaming' }],
    'xstate.error.actor.0.passkeys.renaming': () => [
      { type: 'xstate.error.actor.0.passkeys.renaming', error: new RequestFailure(404, 'Ключ доступа не найден') },
    ],
    'xstate.done.actor.0.passkeys.removing': () => [{ type: 'xstate.done.actor.0.passkeys.removing' }],
    'xstate.error.actor.0.passkeys.removing': () => [
      { type: 'xstate.error.actor.0.passkeys.removing', error: new RequestFailure(400, 'Неверный пароль') },
    ],
  },
});

describe('«Ключи доступа»', () => {
  it('adds one with its name and the password, says so, loads the list again and tells the session', async () => {
    const sent: unknown[] = [];
    const told: string[] = [];
    let kept: Passkey[] = [];
    let refuse: Error | null = new Error('NotAllowedError');
    const section = passkeysMachine.provide({
      actors: {
        loadPasskeys: fromPromise(async () => kept),
        addPasskey: fromPromise(async ({ input }) => {
          sent.push(input);
          if (refuse) throw refuse;
          kept = [key('k1', input.name)];
          return kept[0];
        }),
      },
    });
    // A stand-in session, as the app's root would be, to hear `session.twoFactorEnabled`.
    const root = createActor(
      createMachine({
        invoke: [
          {
            src: createMachine({ on: { '*': { actions: ({ event }) => told.push(event.type) } } }),
            systemId: 'session',
          },
          { src: section, id: 'section' },
        ],
      }),
    ).start();
    const actor = root.getSnapshot().children.section as ReturnType<typeof createActor<typeof section>>;
    await waitFor(actor, (s) => s.matches('ready'));
    // The browser's prompt closed: no server word, the machine's own text; nothing told.
    actor.send({ type: 'passkeys.add', name: 'Ноутбук', password: 'пароль' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(PASSKEY_ADD_FAILED);
    expect(told).toEqual([]);
    refuse = new RequestFailure(400, 'Неверный пароль');
    actor.send({ type: 'passkeys.add', name: 'Ноутбук', password: 'не тот' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error === 'Неверный пароль');
    refuse = null;
    actor.send({ type: 'passkeys.add', name: 'Ноутбук', password: 'пароль' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.passkeys.length === 1);
    expect(actor.getSnapshot().context).toMatchObject({ error: null, notice: PASSKEY_ADDED });
    expect(told).toEqual(['session.twoFactorEnabled']);
    expect(sent).toEqual([
      { name: 'Ноутбук', password: 'пароль' },
      { name: 'Ноутбук', password: 'не тот' },
      { name: 'Ноутбук', password: 'пароль' },
    ]);
  });

  it('renames and removes (with the password); a refusal is said and the list stays', async () => {
    const sent: unknown[] = [];
    let kept = [key('k1')];
    const actor = createActor(
      passkeysMachine.provide({
        actors: {
          loadPasskeys: fromPromise(async () => kept),
          renamePasskey: fromPromise(async ({ input }) => {
            sent.push(['rename', input]);
            kept = [key('k1', input.name)];
          }),
          removePasskey: fromPromise(async ({ input }) => {
            sent.push(['remove', input]);
            if (input.password !== 'пароль') throw new RequestFailure(400, 'Неверный пароль');
            kept = [];
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'passkeys.rename', id: 'k1', name: 'Телефон' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.passkeys[0]?.name === 'Телефон');
    actor.send({ type: 'passkeys.remove', id: 'k1', password: 'не тот' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Неверный пароль', passkeys: [key('k1', 'Телефон')] });
    actor.send({ type: 'passkeys.remove', id: 'k1', password: 'пароль' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.passkeys.length === 0);
    expect(actor.getSnapshot().context).toMatchObject({ error: null, notice: PASSKEY_REMOVED });
    expect(sent).toEqual([
      ['rename', { id: 'k1', name: 'Телефон' }],
      ['remove', { id: 'k1', password: 'не тот' }],
      ['remove', { id: 'k1', password: 'пароль' }],
    ]);
  });

  it('keeps which rows have their rename or remove form open: several at once, closed by «Отмена» or by sending', async () => {
    let kept = [key('k1'), key('k2', 'Телефон'), key('k3', 'Планшет')];
    let finishRename: () => void = () => {};
    const actor = createActor(
      passkeysMachine.provide({
        actors: {
          loadPasskeys: fromPromise(async () => kept),
          renamePasskey: fromPromise(
            () => new Promise<unknown>((resolve) => (finishRename = () => resolve(undefined))),
          ),
          removePasskey: fromPromise(async ({ input }) => {
            kept = kept.filter((p) => p.id !== input.id);
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    const modes = () => actor.getSnapshot().context.rowModes;
    expect(modes()).toEqual({});
    actor.send({ type: 'passkeys.openRename', id: 'k1' });
    actor.send({ type: 'passkeys.openRemove', id: 'k2' });
    actor.send({ type: 'passkeys.openRename', id: 'k3' });
    expect(modes()).toEqual({ k1: 'rename', k2: 'remove', k3: 'rename' });
    // «Отмена» closes that row's form only.
    actor.send({ type: 'passkeys.closeForm', id: 'k3' });
    expect(modes()).toEqual({ k1: 'rename', k2: 'remove' });
    // Sending a form closes it at once; the other row keeps its form while the change is under way, and its
    // «Отмена» still works then, but no form opens until the list is back.
    actor.send({ type: 'passkeys.rename', id: 'k1', name: 'Рабочий ноутбук' });
    expect(actor.getSnapshot().matches('renaming')).toBe(true);
    expect(modes()).toEqual({ k2: 'remove' });
    actor.send({ type: 'passkeys.openRename', id: 'k3' });
    expect(modes()).toEqual({ k2: 'remove' });
    actor.send({ type: 'passkeys.closeForm', id: 'k2' });
    expect(modes()).toEqual({});
    actor.send({ type: 'passkeys.openRemove', id: 'k2' });
    expect(modes()).toEqual({});
    finishRename();
    await waitFor(actor, (s) => s.matches('ready'));
    // A passkey gone from the list (removed on another device) takes its open form with it.
    actor.send({ type: 'passkeys.openRemove', id: 'k2' });
    actor.send({ type: 'passkeys.openRename', id: 'k3' });
    kept = kept.filter((p) => p.id !== 'k3');
    actor.send({ type: 'passkeys.remove', id: 'k2', password: 'пароль' });
    expect(modes()).toEqual({ k3: 'rename' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.passkeys.map((p) => p.id)).toEqual(['k1']);
    expect(modes()).toEqual({});
  });

  it('a failed load says so and tries again on request', async () => {
    let fail = true;
    const actor = createActor(
      passkeysMachine.provide({
        actors: {
          loadPasskeys: fromPromise(async () => {
            if (fail) throw new Error('offline');
            return [] as Passkey[];
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe(PASSKEYS_LOAD_FAILED);
    fail = false;
    actor.send({ type: 'passkeys.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
