// The background registration (secretRegistration.protocol.ts): `register` (the wiring's: the crypto worker
// registers whole) once, `listening` for a new sign-in of the same person asking for approval (`secret:approval`,
// and a reconnection, after which requests made meanwhile are looked for), `device` once the device actor must take
// over. A failed registration is tried again after `retry`. `unapproved`: a new browser whose person's identity key is
// elsewhere waits quietly — no request for approval, so no other device asks — until it asks on its own (`wanted`).
import { setup } from 'xstate';
import { listenToServer } from '../../realtime/index';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import {
  type RegistrationOutcome,
  SECRET_REGISTRATION_RETRY_MS,
  type SecretRegistrationContext,
  type SecretRegistrationEffects,
  type SecretRegistrationEvent,
  type SecretRegistrationInput,
} from './secretRegistration.protocol';

export * from './secretRegistration.protocol';

/** `secret:approval`: a request came or was answered; a reconnection: one may have come meanwhile. */
export const secretRegistrationServerEvents = listenToServer<SecretRegistrationEvent>(
  { 'secret:approval': () => ({ type: 'secretRegistration.check' }) },
  { onConnected: () => ({ type: 'secretRegistration.check' }) },
);

export const secretRegistrationMachine = setup({
  types: {
    context: {} as SecretRegistrationContext,
    events: {} as SecretRegistrationEvent,
    input: {} as SecretRegistrationInput,
  },
  actors: {
    serverEvents: secretRegistrationServerEvents,
    register: notWired('secretRegistration.register') as SecretRegistrationEffects['register'],
    pending: notWired('secretRegistration.pending') as SecretRegistrationEffects['pending'],
    wanted: notWiredCallback('secretRegistration.wanted') as SecretRegistrationEffects['wanted'],
  },
  guards: {
    handOver: (_, outcome: RegistrationOutcome) => outcome.device,
    unapproved: (_, outcome: RegistrationOutcome) => outcome.unapproved === true,
    asked: (_, open: number) => open > 0,
  },
  delays: { retry: SECRET_REGISTRATION_RETRY_MS },
}).createMachine({
  id: 'secretRegistration',
  context: ({ input }) => ({ userId: input.userId }),
  initial: 'registering',
  states: {
    registering: {
      invoke: {
        src: 'register',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: [
          { guard: { type: 'handOver', params: ({ event }) => event.output }, target: 'device' },
          { guard: { type: 'unapproved', params: ({ event }) => event.output }, target: 'unapproved' },
          { target: 'listening' },
        ],
        onError: 'failed',
      },
    },
    failed: {
      after: { retry: 'registering' },
    },
    /** Registered: only the light listener runs. */
    listening: {
      invoke: { src: 'serverEvents' },
      on: { 'secretRegistration.check': 'checking' },
    },
    checking: {
      invoke: [
        { src: 'serverEvents' },
        {
          src: 'pending',
          input: ({ context }) => ({ userId: context.userId }),
          onDone: [
            { guard: { type: 'asked', params: ({ event }) => event.output }, target: 'device' },
            { target: 'listening' },
          ],
          onError: 'listening',
        },
      ],
      on: { 'secretRegistration.check': { target: 'checking', reenter: true } },
    },
    /**
     * Not a device: the person's identity key is on another device, and nothing here needs secret chats yet. It holds
     * no key to approve anyone with, so it does not listen for requests either.
     */
    unapproved: {
      invoke: { src: 'wanted', input: ({ context }) => ({ userId: context.userId }) },
      on: { 'secretRegistration.wanted': 'device' },
    },
    /** The device actor and the approval holder take over (the view spawns them). */
    device: {
      tags: ['device'],
    },
  },
});
