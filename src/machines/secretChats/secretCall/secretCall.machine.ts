// A secret chat's call key (docs/secret-chats.md "Calls"). Two parts, side by side:
// - the group's call key (`base`): derived in the crypto worker from the MLS group as soon as the call view opens,
//   and again whenever the chat's actor reports a new epoch (a device added or removed);
// - the call's secret, which only the devices in the call hold: the `exchange` effect runs it over the room's data
//   channel (the view tells the room's events and puts the messages it emits on the channel) and sends back each new
//   media key, the base mixed with the secret. A member who leaves the call makes the lead of the rest make a new one.
// Effects are the wiring's: `watchEpoch` follows the chat's actor, `derive` asks the crypto worker, `exchange` runs
// services/secretChats/call-secret.ts.
//
// group:  deriving ──done──► ready ──epoch (newer than the base's)──► deriving
//         deriving ──error──► failed ──epoch──► deriving
// secret: idle ──connected──► asking ──(helloAgain: hello to all again)──► asking ──key──► held
// (any state) room event ──► the exchange;  exchange's key ──► key;  exchange's message ──► emitted to the view
import { assign, emit, fromCallback, sendTo, setup } from 'xstate';
import { notWired } from '../../shared/not-wired';
import {
  CALL_KEY_FAILED,
  HELLO_AGAIN_MS,
  type SecretCallContext,
  type SecretCallEffects,
  type SecretCallEmitted,
  type SecretCallEvent,
  type SecretCallExchangeInput,
  type SecretCallInput,
} from './secretCall.protocol';

export * from './secretCall.protocol';

const errorText = (e: unknown) => (e instanceof Error && e.name === 'SecretCryptoError' ? e.message : CALL_KEY_FAILED);

export const secretCallMachine = setup({
  types: {
    context: {} as SecretCallContext,
    events: {} as SecretCallEvent,
    input: {} as SecretCallInput,
    emitted: {} as SecretCallEmitted,
  },
  actors: {
    watchEpoch: fromCallback(() => () => {}) as SecretCallEffects['watchEpoch'],
    derive: notWired('secretCall.derive') as SecretCallEffects['derive'],
    exchange: fromCallback(() => () => {}) as SecretCallEffects['exchange'],
  },
  delays: { helloAgain: HELLO_AGAIN_MS },
  actions: {
    /** The room's events go to the exchange as they came. */
    toExchange: sendTo('exchange', ({ event }) => event as SecretCallExchangeInput),
  },
  guards: {
    /** An epoch the current base is not of (a later one: epochs only grow). */
    newEpoch: ({ context, event }) => event.type === 'secretCall.epoch' && event.epoch > (context.base?.epoch ?? -1),
    connected: ({ context }) => context.connected,
    hasKey: ({ context }) => context.key !== null,
    /** A media key newer than the one held, or another one in its place (two leads settled on one secret). */
    newKey: ({ context, event }) => event.type === 'secretCall.key' && event.key.epoch >= (context.key?.epoch ?? -1),
  },
}).createMachine({
  id: 'secretCall',
  context: ({ input }) => ({
    ...input,
    epoch: null,
    base: null,
    key: null,
    generation: 0,
    connected: false,
    error: null,
  }),
  invoke: [
    { id: 'watchEpoch', src: 'watchEpoch', input: ({ context }) => context },
    { id: 'exchange', src: 'exchange', input: ({ context }) => context },
  ],
  on: {
    'secretCall.epoch': {
      guard: 'newEpoch',
      target: '.group.deriving',
      actions: assign({ epoch: ({ event }) => event.epoch }),
    },
    'secretCall.connected': { actions: ['toExchange', assign({ connected: true })] },
    'secretCall.joined': { actions: 'toExchange' },
    'secretCall.left': { actions: 'toExchange' },
    'secretCall.data': { actions: 'toExchange' },
    'secretCall.key': {
      guard: 'newKey',
      actions: assign({ key: ({ event }) => event.key, generation: ({ event }) => event.generation }),
    },
    'secretCall.send': {
      actions: emit(({ event }) => ({ type: 'secretCall.send' as const, payload: event.payload, to: event.to })),
    },
  },
  type: 'parallel',
  states: {
    group: {
      initial: 'deriving',
      states: {
        deriving: {
          invoke: {
            id: 'derive',
            src: 'derive',
            input: ({ context }) => ({ userId: context.userId, conversationId: context.conversationId }),
            onDone: {
              target: 'ready',
              actions: [
                assign({ base: ({ event }) => event.output, epoch: ({ event }) => event.output.epoch, error: null }),
                sendTo('exchange', ({ event }) => ({ type: 'secretCall.base' as const, base: event.output })),
              ],
            },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
        },
        ready: { tags: ['ready'] },
        failed: { tags: ['error'] },
      },
    },
    // Connected without the call's key: a hello may have been lost, or met a device an epoch apart; say it again.
    secret: {
      initial: 'idle',
      states: {
        idle: { always: { guard: 'connected', target: 'asking' } },
        asking: {
          always: { guard: 'hasKey', target: 'held' },
          after: {
            helloAgain: {
              target: 'asking',
              reenter: true,
              actions: sendTo('exchange', { type: 'secretCall.helloAgain' as const }),
            },
          },
        },
        held: {},
      },
    },
  },
});
