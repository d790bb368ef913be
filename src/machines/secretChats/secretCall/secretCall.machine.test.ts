import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { SecretCryptoError } from '../../../services/secretChats/crypto/secret-crypto';
import { CALL_KEY_FAILED, type CallKey, type SecretCallEvent, type SecretCallInput } from './secretCall.protocol';
import { secretCallMachine } from './secretCall.machine';

const hang = <O, I>() => fromPromise<O, I>(() => new Promise<never>(() => {}));
const key = (epoch: number): CallKey => ({ epoch, key: new Uint8Array(32).fill(epoch) });
const tick = () => new Promise((r) => setTimeout(r, 0));

describeModel({
  name: 'secretCall',
  machine: secretCallMachine.provide({ actors: { derive: hang<CallKey, SecretCallInput>() } }),
  inputs: [{ userId: 'u1', conversationId: 'c1' }],
  contextKey: (c) => ({ epoch: c.epoch, key: c.key?.epoch ?? null, error: c.error }),
  events: {
    // Epochs 1 to 3: enough for a newer epoch in every state, and a bounded graph.
    'secretCall.epoch': (s) => [{ type: 'secretCall.epoch', epoch: Math.min((s.context.epoch ?? 0) + 1, 3) }],
    'xstate.done.actor.derive': (s) => [{ type: 'xstate.done.actor.derive', output: key(s.context.epoch ?? 1) }],
    'xstate.error.actor.derive': () => [
      { type: 'xstate.error.actor.derive', error: new SecretCryptoError('notMember', 'нет группы') },
    ],
  },
});

describe('secretCall behaviour', () => {
  it('derives the key at once, again on each newer epoch, and ignores an epoch the key already has', async () => {
    const asked: SecretCallInput[] = [];
    let epoch = 3;
    let tell: ((e: SecretCallEvent) => void) | null = null;
    const actor = createActor(
      secretCallMachine.provide({
        actors: {
          watchEpoch: fromCallback<SecretCallEvent, SecretCallInput>(({ sendBack }) => {
            tell = sendBack;
          }),
          derive: fromPromise<CallKey, SecretCallInput>(async ({ input }) => {
            asked.push(input);
            return key(epoch);
          }),
        },
      }),
      { input: { userId: 'u1', conversationId: 'c1' } },
    ).start();
    await tick();
    expect(actor.getSnapshot().hasTag('ready')).toBe(true);
    expect(actor.getSnapshot().context.key).toEqual(key(3));
    tell!({ type: 'secretCall.epoch', epoch: 3 });
    await tick();
    expect(asked).toHaveLength(1);
    epoch = 4;
    tell!({ type: 'secretCall.epoch', epoch: 4 });
    await tick();
    expect(asked).toEqual([
      { userId: 'u1', conversationId: 'c1' },
      { userId: 'u1', conversationId: 'c1' },
    ]);
    expect(actor.getSnapshot().context.key).toEqual(key(4));
  });

  it('says why when no key can be had (this device is not in the group), in the service’s words', async () => {
    const fail = (e: Error) =>
      createActor(
        secretCallMachine.provide({
          actors: { derive: fromPromise<CallKey, SecretCallInput>(async () => Promise.reject(e)) },
        }),
        { input: { userId: 'u1', conversationId: 'c1' } },
      ).start();
    const a = fail(new SecretCryptoError('notMember', 'Это устройство не состоит в секретном чате'));
    const b = fail(new Error('boom'));
    await tick();
    expect(a.getSnapshot().hasTag('error')).toBe(true);
    expect(a.getSnapshot().context.error).toBe('Это устройство не состоит в секретном чате');
    expect(b.getSnapshot().context.error).toBe(CALL_KEY_FAILED);
  });
});
