// A secret chat's call key (docs/secret-chats.md "Calls"): derived in the crypto worker from the MLS group as soon as
// the call view opens, and again whenever the chat's actor reports a new epoch (a device added or removed), so every
// participant of the call moves to the same new key. Effects are the wiring's: `watchEpoch` follows the chat's actor,
// `derive` asks the crypto worker for the current epoch's key.
//
// deriving ──done──► ready ──epoch (newer than the key's)──► deriving
// deriving ──error──► failed ──epoch──► deriving
import { assign, fromCallback, setup } from 'xstate';
import { notWired } from '../../shared/not-wired';
import {
  CALL_KEY_FAILED,
  type SecretCallContext,
  type SecretCallEffects,
  type SecretCallEvent,
  type SecretCallInput,
} from './secretCall.protocol';

export * from './secretCall.protocol';

const errorText = (e: unknown) => (e instanceof Error && e.name === 'SecretCryptoError' ? e.message : CALL_KEY_FAILED);

export const secretCallMachine = setup({
  types: {
    context: {} as SecretCallContext,
    events: {} as SecretCallEvent,
    input: {} as SecretCallInput,
  },
  actors: {
    watchEpoch: fromCallback(() => () => {}) as SecretCallEffects['watchEpoch'],
    derive: notWired('secretCall.derive') as SecretCallEffects['derive'],
  },
  guards: {
    /** An epoch the current key is not of (a later one: epochs only grow). */
    newEpoch: ({ context, event }) => event.epoch > (context.key?.epoch ?? -1),
  },
}).createMachine({
  id: 'secretCall',
  context: ({ input }) => ({ ...input, epoch: null, key: null, error: null }),
  invoke: { id: 'watchEpoch', src: 'watchEpoch', input: ({ context }) => context },
  on: {
    'secretCall.epoch': {
      guard: 'newEpoch',
      target: '.deriving',
      actions: assign({ epoch: ({ event }) => event.epoch }),
    },
  },
  initial: 'deriving',
  states: {
    deriving: {
      invoke: {
        id: 'derive',
        src: 'derive',
        input: ({ context }) => ({ userId: context.userId, conversationId: context.conversationId }),
        onDone: {
          target: 'ready',
          actions: assign({ key: ({ event }) => event.output, epoch: ({ event }) => event.output.epoch, error: null }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    ready: { tags: ['ready'] },
    failed: { tags: ['error'] },
  },
});
