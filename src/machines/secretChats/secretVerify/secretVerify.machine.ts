// «Проверить шифрование»: while its dialog is open, this actor asks the crypto worker (through the `load` actor the
// wiring provides) for the fingerprint and the members' devices, and again whenever the group changes on this
// device, so what the dialog shows is always the current membership's.
import { assertEvent, assign, setup } from 'xstate';
import { notWired } from '../../shared/not-wired';
import {
  SECRET_VERIFY_FAILED,
  type SecretVerifyContext,
  type SecretVerifyEffects,
  type SecretVerifyEvent,
  type SecretVerifyInput,
} from './secretVerify.protocol';

export * from './secretVerify.protocol';

// The worker's refusals (SecretCryptoError) carry a Russian message for the user.
const errorText = (e: unknown) =>
  e instanceof Error && e.name === 'SecretCryptoError' ? e.message : SECRET_VERIFY_FAILED;

export const secretVerifyMachine = setup({
  types: {
    context: {} as SecretVerifyContext,
    events: {} as SecretVerifyEvent,
    input: {} as SecretVerifyInput,
  },
  actors: {
    load: notWired('secretVerify.load') as SecretVerifyEffects['load'],
    save: notWired('secretVerify.save') as SecretVerifyEffects['save'],
  },
}).createMachine({
  id: 'secretVerify',
  context: ({ input }) => ({ ...input, verification: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ userId: context.userId, conversationId: context.conversationId }),
        onDone: {
          target: 'shown',
          actions: assign({ verification: ({ event }) => event.output, error: null }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
      // A change while loading: load again, since the answer may be of the old group.
      on: { 'secretVerify.refresh': { target: 'loading', reenter: true } },
    },
    shown: {
      tags: ['shown'],
      on: { 'secretVerify.refresh': 'loading', 'secretVerify.save': 'saving' },
    },
    // A mark or an acknowledged key, kept on this device; then everything is read again.
    saving: {
      tags: ['shown', 'busy'],
      invoke: {
        src: 'save',
        input: ({ context, event }) => {
          assertEvent(event, 'secretVerify.save');
          return {
            userId: context.userId,
            conversationId: context.conversationId,
            personId: event.personId,
            action: event.action,
          };
        },
        onDone: 'loading',
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    failed: {
      tags: ['error'],
      on: { 'secretVerify.retry': 'loading', 'secretVerify.refresh': 'loading' },
    },
  },
});
