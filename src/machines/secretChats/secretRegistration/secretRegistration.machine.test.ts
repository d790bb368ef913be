import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import {
  type RegistrationOutcome,
  SECRET_REGISTRATION_RETRY_MS,
  type SecretRegistrationInput,
  secretRegistrationMachine,
} from './secretRegistration.machine';

const hang = <O, I>() => fromPromise<O, I>(() => new Promise<never>(() => {}));

describeModel({
  name: 'secretRegistration',
  machine: secretRegistrationMachine.provide({
    actors: {
      serverEvents: fromCallback(() => () => {}),
      register: hang<RegistrationOutcome, SecretRegistrationInput>(),
      pending: hang<number, SecretRegistrationInput>(),
      wanted: fromCallback(() => () => {}),
    },
  }),
  inputs: [{ userId: 'u1' }],
  events: {
    'xstate.done.actor.0.secretRegistration.registering': () => [
      { type: 'xstate.done.actor.0.secretRegistration.registering', output: { device: false } },
      { type: 'xstate.done.actor.0.secretRegistration.registering', output: { device: true } },
      { type: 'xstate.done.actor.0.secretRegistration.registering', output: { device: false, unapproved: true } },
    ],
    'secretRegistration.wanted': () => [{ type: 'secretRegistration.wanted' }],
    'xstate.error.actor.0.secretRegistration.registering': () => [
      { type: 'xstate.error.actor.0.secretRegistration.registering', error: new Error('offline') },
    ],
    'xstate.done.actor.1.secretRegistration.checking': () => [
      { type: 'xstate.done.actor.1.secretRegistration.checking', output: 0 },
      { type: 'xstate.done.actor.1.secretRegistration.checking', output: 1 },
    ],
    'xstate.error.actor.1.secretRegistration.checking': () => [
      { type: 'xstate.error.actor.1.secretRegistration.checking', error: new Error('offline') },
    ],
  },
});

describe('secretRegistration behaviour', () => {
  it('registers, listens, and hands over to the device actor only when a new sign-in asks', async () => {
    const opens = [0, 2];
    const actor = createActor(
      secretRegistrationMachine.provide({
        actors: {
          serverEvents: fromCallback(() => () => {}),
          register: fromPromise<RegistrationOutcome, SecretRegistrationInput>(async () => ({ device: false })),
          pending: fromPromise<number, SecretRegistrationInput>(async () => opens.shift() ?? 0),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('listening'));
    actor.send({ type: 'secretRegistration.check' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('listening'));
    expect(actor.getSnapshot().hasTag('device')).toBe(false);
    actor.send({ type: 'secretRegistration.check' });
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('device')).toBe(true));
    actor.stop();
  });

  it('a new browser of a person with no secret chats asks nothing, and nobody is prompted, until it needs secret chats', async () => {
    let asked: (() => void) | null = null;
    let looked = 0;
    const actor = createActor(
      secretRegistrationMachine.provide({
        actors: {
          serverEvents: fromCallback(() => () => {}),
          // The worker: the identity key is on another device of the person.
          register: fromPromise<RegistrationOutcome, SecretRegistrationInput>(async () => ({
            device: false,
            unapproved: true,
          })),
          pending: fromPromise<number, SecretRegistrationInput>(async () => {
            looked++;
            return 1;
          }),
          wanted: fromCallback(({ sendBack }) => {
            asked = () => sendBack({ type: 'secretRegistration.wanted' });
            return () => {
              asked = null;
            };
          }),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('unapproved'));
    // No device actor and no approval view: no request made here, no prompt shown; another sign-in's request is
    // not this browser's to answer (it holds no identity key).
    expect(actor.getSnapshot().hasTag('device')).toBe(false);
    actor.send({ type: 'secretRegistration.check' });
    expect(actor.getSnapshot().value).toBe('unapproved');
    expect(looked).toBe(0);
    // «Новый секретный чат» opened here: it asks, and the device actor with its approval view take over.
    (asked as (() => void) | null)?.();
    expect(actor.getSnapshot().hasTag('device')).toBe(true);
    expect(asked).toBeNull();
    actor.stop();
  });

  it('tries a failed registration again after the named delay', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const actor = createActor(
      secretRegistrationMachine.provide({
        actors: {
          serverEvents: fromCallback(() => () => {}),
          register: fromPromise<RegistrationOutcome, SecretRegistrationInput>(async () => {
            calls++;
            if (calls === 1) throw new Error('offline');
            return { device: true };
          }),
          pending: hang<number, SecretRegistrationInput>(),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('failed');
    await vi.advanceTimersByTimeAsync(SECRET_REGISTRATION_RETRY_MS);
    expect(calls).toBe(2);
    expect(actor.getSnapshot().hasTag('device')).toBe(true);
    actor.stop();
    vi.useRealTimers();
  });
});
