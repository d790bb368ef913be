// The registration mode (protocol: registrationMode.protocol.ts): one request; a failure counts as «Открытая», so the
// form stays usable and the server's own refusal explains the rest.
import { assign, setup } from 'xstate';
import { notWired } from '../../shared/not-wired';
import {
  PASSWORDS_ONLY,
  type RegistrationModeContext,
  type RegistrationModeEffects,
  type RegistrationModeEvent,
} from './registrationMode.protocol';

export * from './registrationMode.protocol';

export const registrationModeMachine = setup({
  types: { context: {} as RegistrationModeContext, events: {} as RegistrationModeEvent },
  actors: {
    loadMode: notWired('registrationMode.loadMode') as RegistrationModeEffects['loadMode'],
  },
}).createMachine({
  id: 'registrationMode',
  context: { mode: null, firstAccount: false, signIn: PASSWORDS_ONLY },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadMode',
        src: 'loadMode',
        onDone: {
          target: 'known',
          actions: assign({
            mode: ({ event }) => event.output.mode,
            firstAccount: ({ event }) => event.output.firstAccount,
            signIn: ({ event }) => event.output.signIn,
          }),
        },
        onError: { target: 'known', actions: assign({ mode: 'open', firstAccount: false, signIn: PASSWORDS_ONLY }) },
      },
    },
    known: { on: { 'registrationMode.reload': 'loading' } },
  },
});
