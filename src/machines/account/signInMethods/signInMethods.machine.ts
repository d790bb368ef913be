// «Способы входа» (protocol: signInMethods.protocol.ts): one request, GET /api/auth/methods; a failure offers
// «Повторить».
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  SIGN_IN_METHODS_FAILED,
  type SignInMethodsContext,
  type SignInMethodsEffects,
  type SignInMethodsEvent,
} from './signInMethods.protocol';

export * from './signInMethods.protocol';

export const signInMethodsMachine = setup({
  types: { context: {} as SignInMethodsContext, events: {} as SignInMethodsEvent },
  actors: {
    loadMethods: notWired('signInMethods.loadMethods') as SignInMethodsEffects['loadMethods'],
  },
}).createMachine({
  id: 'signInMethods',
  context: { methods: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadMethods',
        src: 'loadMethods',
        onDone: { target: 'known', actions: assign({ methods: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureMessage(event.error, SIGN_IN_METHODS_FAILED) }),
        },
      },
    },
    known: {},
    failed: { on: { 'signInMethods.retry': 'loading' } },
  },
});
