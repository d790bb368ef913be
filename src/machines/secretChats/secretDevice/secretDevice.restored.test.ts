// After a recovery key's restore the device forgets only what it could not read, so the views ask again.
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise } from 'xstate';
import {
  type SecretDeviceEvent,
  type SecretDeviceStart,
  secretDeviceMachine,
  type WatchInput,
} from './secretDevice.machine';

describe('secretDevice after a restore', () => {
  it('drops the unreadable marks and keeps the texts', () => {
    const actor = createActor(
      secretDeviceMachine.provide({
        actors: {
          start: fromPromise<SecretDeviceStart, { userId: string }>(() => new Promise<never>(() => {})),
          serverEvents: fromCallback(() => undefined),
          secretChat: createMachine({}) as never,
          watchChat: fromCallback<SecretDeviceEvent, WatchInput>(() => undefined),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    actor.send({ type: 'secretDevice.unreadable', messageId: 'm1' });
    actor.send({ type: 'secretDevice.text', messageId: 'm2', envelope: { v: 1, kind: 'text', text: 'привет' } });
    actor.send({ type: 'secretDevice.restored' });
    expect(actor.getSnapshot().context.texts).toEqual({ m2: { status: 'text', text: 'привет', replyToId: null } });
  });
});
