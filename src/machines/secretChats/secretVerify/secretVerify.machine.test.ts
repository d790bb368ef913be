import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import {
  type SecretVerification,
  type SecretVerifyInput,
  type SecretVerifySave,
  secretVerifyMachine,
} from './secretVerify.machine';

const hang = <O, I>() => fromPromise<O, I>(() => new Promise<never>(() => {}));
const answer = (digit: string): SecretVerification => ({
  fingerprint: { digits: Array(12).fill(digit), emoji: Array(8).fill('🐶') },
  epoch: 1,
  members: [{ userId: 'u1', deviceIds: ['d1'] }],
  ownDeviceId: 'd1',
});
const refused = Object.assign(new Error('Это устройство не состоит в секретном чате'), { name: 'SecretCryptoError' });

describeModel({
  name: 'secretVerify',
  machine: secretVerifyMachine.provide({
    actors: {
      load: hang<SecretVerification, SecretVerifyInput>(),
      save: hang<unknown, SecretVerifyInput & SecretVerifySave>(),
    },
  }),
  inputs: [{ userId: 'u1', conversationId: 'c1' }],
  events: {
    'xstate.done.actor.load': () => [{ type: 'xstate.done.actor.load', output: answer('11111') }],
    'xstate.error.actor.load': () => [{ type: 'xstate.error.actor.load', error: refused }],
    'secretVerify.save': () => [{ type: 'secretVerify.save', personId: 'u2', action: 'verify' }],
    'xstate.done.actor.0.secretVerify.saving': () => [{ type: 'xstate.done.actor.0.secretVerify.saving', output: {} }],
    'xstate.error.actor.0.secretVerify.saving': () => [
      { type: 'xstate.error.actor.0.secretVerify.saving', error: refused },
    ],
  },
});

describe('secretVerify behaviour', () => {
  it('shows what the worker answers, reads it again when the group changes, and words failures', async () => {
    const answers: Array<SecretVerification | Error> = [answer('11111'), answer('22222'), new Error('boom'), refused];
    const asked: SecretVerifyInput[] = [];
    const actor = createActor(
      secretVerifyMachine.provide({
        actors: {
          load: fromPromise<SecretVerification, SecretVerifyInput>(async ({ input }) => {
            asked.push(input);
            const next = answers.shift() as SecretVerification | Error;
            if (next instanceof Error) throw next;
            return next;
          }),
        },
      }),
      { input: { userId: 'u1', conversationId: 'c1' } },
    ).start();
    const settle = () => new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await settle();
    expect(actor.getSnapshot().hasTag('shown')).toBe(true);
    expect(actor.getSnapshot().context.verification?.fingerprint.digits[0]).toBe('11111');
    actor.send({ type: 'secretVerify.refresh' });
    await settle();
    expect(actor.getSnapshot().context.verification?.fingerprint.digits[0]).toBe('22222');
    actor.send({ type: 'secretVerify.refresh' });
    await settle();
    expect(actor.getSnapshot().context.error).toBe('Не удалось получить отпечаток ключей');
    actor.send({ type: 'secretVerify.retry' });
    await settle();
    expect(actor.getSnapshot().context.error).toBe('Это устройство не состоит в секретном чате');
    expect(asked).toEqual(Array(4).fill({ userId: 'u1', conversationId: 'c1' }));
    actor.stop();
  });
});
