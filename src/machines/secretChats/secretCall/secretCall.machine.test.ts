import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { SecretCryptoError } from '../../../services/secretChats/crypto/secret-crypto';
import { secretCallMachine } from './secretCall.machine';
import {
  CALL_KEY_FAILED,
  type CallKey,
  HELLO_AGAIN_MS,
  type SecretCallEmitted,
  type SecretCallEvent,
  type SecretCallExchangeInput,
  type SecretCallInput,
} from './secretCall.protocol';

const hang = <O, I>() => fromPromise<O, I>(() => new Promise<never>(() => {}));
const key = (epoch: number): CallKey => ({ epoch, key: new Uint8Array(32).fill(epoch) });
const tick = () => new Promise((r) => setTimeout(r, 0));

describeModel({
  name: 'secretCall',
  machine: secretCallMachine.provide({ actors: { derive: hang<CallKey, SecretCallInput>() } }),
  inputs: [{ userId: 'u1', conversationId: 'c1' }],
  contextKey: (c) => ({
    epoch: c.epoch,
    base: c.base?.epoch ?? null,
    key: c.key?.epoch ?? null,
    generation: c.generation,
    connected: c.connected,
    error: c.error,
  }),
  events: {
    // The room's events only go on to the exchange; the exchange's keys up to generation 2.
    'secretCall.connected': () => [{ type: 'secretCall.connected', others: ['u2'] }],
    'secretCall.joined': () => [{ type: 'secretCall.joined', identity: 'u3' }],
    'secretCall.left': () => [{ type: 'secretCall.left', identity: 'u3', others: ['u2'] }],
    'secretCall.data': () => [{ type: 'secretCall.data', from: 'u2', payload: new Uint8Array([1]) }],
    'secretCall.key': (s) => {
      const generation = Math.min(s.context.generation + 1, 2);
      return [{ type: 'secretCall.key', key: key(1 + generation), generation }];
    },
    'secretCall.send': () => [{ type: 'secretCall.send', payload: new Uint8Array([2]), to: null }],
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
    expect(actor.getSnapshot().context.base).toEqual(key(3));
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
    expect(actor.getSnapshot().context.base).toEqual(key(4));
  });

  it('hands the exchange each group key and the room’s events in order, takes its keys, and emits what it sends', async () => {
    const heard: SecretCallExchangeInput[] = [];
    let back: ((e: SecretCallEvent) => void) | null = null;
    const actor = createActor(
      secretCallMachine.provide({
        actors: {
          derive: fromPromise<CallKey, SecretCallInput>(async () => key(3)),
          exchange: fromCallback<SecretCallExchangeInput, SecretCallInput>(({ receive, sendBack }) => {
            back = sendBack;
            receive((e) => heard.push(e));
          }),
        },
      }),
      { input: { userId: 'u1', conversationId: 'c1' } },
    ).start();
    const sent: SecretCallEmitted[] = [];
    actor.on('secretCall.send', (e) => sent.push(e));
    await tick();
    actor.send({ type: 'secretCall.connected', others: ['u2'] });
    actor.send({ type: 'secretCall.data', from: 'u2', payload: new Uint8Array([7]) });
    actor.send({ type: 'secretCall.left', identity: 'u2', others: [] });
    expect(heard).toEqual([
      { type: 'secretCall.base', base: key(3) },
      { type: 'secretCall.connected', others: ['u2'] },
      { type: 'secretCall.data', from: 'u2', payload: new Uint8Array([7]) },
      { type: 'secretCall.left', identity: 'u2', others: [] },
    ]);
    // Until the exchange has a key there is none: the group's key alone never encrypts the call.
    expect(actor.getSnapshot().context.key).toBeNull();
    back!({ type: 'secretCall.send', payload: new Uint8Array([9]), to: ['u2'] });
    expect(sent).toEqual([{ type: 'secretCall.send', payload: new Uint8Array([9]), to: ['u2'] }]);
    back!({ type: 'secretCall.key', key: key(5), generation: 2 });
    // An older key arriving late is not taken back; one of the same order replaces it.
    back!({ type: 'secretCall.key', key: key(4), generation: 1 });
    expect(actor.getSnapshot().context).toMatchObject({ key: key(5), generation: 2, base: key(3) });
    const same = { epoch: 5, key: new Uint8Array(32).fill(1) };
    back!({ type: 'secretCall.key', key: same, generation: 2 });
    expect(actor.getSnapshot().context.key).toEqual(same);
  });

  it('connected without the call’s key, asks the exchange to say hello again every 2 s until a key comes', async () => {
    vi.useFakeTimers();
    try {
      const heard: string[] = [];
      let back: ((e: SecretCallEvent) => void) | null = null;
      const actor = createActor(
        secretCallMachine.provide({
          actors: {
            derive: fromPromise<CallKey, SecretCallInput>(async () => key(3)),
            exchange: fromCallback<SecretCallExchangeInput, SecretCallInput>(({ receive, sendBack }) => {
              back = sendBack;
              receive((e) => heard.push(e.type));
            }),
          },
        }),
        { input: { userId: 'u1', conversationId: 'c1' } },
      ).start();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(heard).toEqual(['secretCall.base']);
      actor.send({ type: 'secretCall.connected', others: ['u2'] });
      await vi.advanceTimersByTimeAsync(HELLO_AGAIN_MS - 1);
      expect(heard.filter((t) => t === 'secretCall.helloAgain')).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      await vi.advanceTimersByTimeAsync(HELLO_AGAIN_MS);
      expect(heard.filter((t) => t === 'secretCall.helloAgain')).toHaveLength(2);
      back!({ type: 'secretCall.key', key: key(4), generation: 1 });
      await vi.advanceTimersByTimeAsync(10 * HELLO_AGAIN_MS);
      expect(heard.filter((t) => t === 'secretCall.helloAgain')).toHaveLength(2);
      expect(actor.getSnapshot().value).toEqual({ group: 'ready', secret: 'held' });
    } finally {
      vi.useRealTimers();
    }
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
