import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { SecretCryptoError } from '../../../services/secretChats/crypto/secret-crypto';
import {
  type RecoveryMade,
  type RecoveryStatus,
  secretRecoveryMachine,
  WRONG_RECOVERY_KEY,
} from './secretRecovery.machine';

const hang = <O, I>() => fromPromise<O, I>(() => new Promise<never>(() => {}));
const made: RecoveryMade = { phrase: 'AAAA-BBBB', salt: 'c2FsdA==', iterations: 600_000, check: 'Y2hlY2s=' };
const withKey: RecoveryStatus = { hasKey: true, createdAt: null, here: false };
const noKey: RecoveryStatus = { hasKey: false, createdAt: null, here: false };

describeModel({
  name: 'secretRecovery',
  machine: secretRecoveryMachine.provide({
    actors: {
      status: hang(),
      generate: hang(),
      confirm: hang(),
      restore: hang(),
      remove: hang(),
    },
  }),
  inputs: [
    { userId: 'u1', mode: 'setup' },
    { userId: 'u1', mode: 'restore' },
  ],
  events: {
    'secretRecovery.submit': () => [
      { type: 'secretRecovery.submit', phrase: '' },
      { type: 'secretRecovery.submit', phrase: 'AAAA-BBBB' },
    ],
    'xstate.done.actor.status': () => [
      { type: 'xstate.done.actor.status', output: withKey },
      { type: 'xstate.done.actor.status', output: noKey },
    ],
    'xstate.error.actor.status': () => [{ type: 'xstate.error.actor.status', error: new RequestFailure(null, null) }],
    'xstate.done.actor.generate': () => [{ type: 'xstate.done.actor.generate', output: made }],
    'xstate.error.actor.generate': () => [
      { type: 'xstate.error.actor.generate', error: new SecretCryptoError('failed', 'Не удалось') },
    ],
    'xstate.done.actor.confirm': () => [{ type: 'xstate.done.actor.confirm', output: undefined }],
    'xstate.error.actor.confirm': () => [
      { type: 'xstate.error.actor.confirm', error: new RequestFailure(400, 'Соль: ожидается base64') },
    ],
    'xstate.done.actor.restore': () => [{ type: 'xstate.done.actor.restore', output: { restored: 3 } }],
    'xstate.error.actor.restore': () => [
      { type: 'xstate.error.actor.restore', error: new SecretCryptoError('badKey', WRONG_RECOVERY_KEY) },
      { type: 'xstate.error.actor.restore', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.remove': () => [{ type: 'xstate.done.actor.remove', output: undefined }],
    'xstate.error.actor.remove': () => [{ type: 'xstate.error.actor.remove', error: new RequestFailure(500, null) }],
  },
});

describe('secretRecovery behaviour', () => {
  it('refuses a wrong phrase and lets it be typed again; a right one tells the device to read again', async () => {
    const heard: string[] = [];
    const device = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event.type) } } });
    const phrases: string[] = [];
    const machine = secretRecoveryMachine.provide({
      actors: {
        status: fromPromise<RecoveryStatus, { userId: string }>(async () => withKey),
        generate: hang(),
        confirm: hang(),
        restore: fromPromise<{ restored: number }, { userId: string; phrase: string }>(async ({ input }) => {
          phrases.push(input.phrase);
          if (input.phrase !== 'right') throw new SecretCryptoError('badKey', WRONG_RECOVERY_KEY);
          return { restored: 2 };
        }),
        remove: hang(),
      },
    });
    // The device actor as a sibling in the same system.
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'device', systemId: 'secretDevice', src: device },
          { id: 'recovery', src: machine, input: { userId: 'u1', mode: 'restore' } },
        ],
      }),
    ).start();
    const actor = root.getSnapshot().children.recovery as ReturnType<typeof createActor<typeof machine>>;
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().hasTag('entering')).toBe(true);
    actor.send({ type: 'secretRecovery.submit', phrase: '  ' });
    expect(actor.getSnapshot().context.error).toBe('Введите ключ восстановления');
    actor.send({ type: 'secretRecovery.submit', phrase: 'wrong' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().hasTag('entering')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Неверный ключ восстановления');
    expect(heard).toEqual([]);
    actor.send({ type: 'secretRecovery.submit', phrase: 'right' });
    await new Promise((r) => setTimeout(r, 0));
    expect(phrases).toEqual(['wrong', 'right']);
    expect(actor.getSnapshot().hasTag('done')).toBe(true);
    expect(actor.getSnapshot().context.restored).toBe(2);
    expect(heard).toEqual(['secretDevice.restored']);
  });

  it('without a key in restore mode stays idle (the view explains), and a phrase not saved reaches no server', async () => {
    const confirmed: RecoveryMade[] = [];
    const actor = createActor(
      secretRecoveryMachine.provide({
        actors: {
          status: fromPromise<RecoveryStatus, { userId: string }>(async () => noKey),
          generate: fromPromise<RecoveryMade, { userId: string }>(async () => made),
          confirm: fromPromise<void, { userId: string; made: RecoveryMade }>(async ({ input }) => {
            confirmed.push(input.made);
          }),
          restore: hang(),
          remove: hang(),
        },
      }),
      { input: { userId: 'u1', mode: 'restore' } },
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().hasTag('idle')).toBe(true);
    actor.send({ type: 'secretRecovery.enter' });
    expect(actor.getSnapshot().hasTag('idle')).toBe(true);
    actor.send({ type: 'secretRecovery.create' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.made?.phrase).toBe('AAAA-BBBB');
    actor.send({ type: 'secretRecovery.back' });
    expect(actor.getSnapshot().context.made).toBeNull();
    expect(confirmed).toEqual([]);
    actor.send({ type: 'secretRecovery.create' });
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'secretRecovery.saved' });
    await new Promise((r) => setTimeout(r, 0));
    expect(confirmed).toEqual([made]);
    expect(actor.getSnapshot().hasTag('done')).toBe(true);
    expect(actor.getSnapshot().context.made).toBeNull();
    expect(actor.getSnapshot().context.status).toMatchObject({ hasKey: true, here: true });
  });
});
