// The registration mode (protocol: registrationMode.protocol.ts): one request; a failure counts as «Открытая», so the
// form stays usable and the server's own refusal explains the rest.
import { assign, setup } from 'xstate';
import type { RegistrationMode } from '../../../contract/administration';
import { notWired } from '../../shared/not-wired';
import type { RegistrationModeContext, RegistrationModeEvent } from './registrationMode.protocol';

export * from './registrationMode.protocol';

export const registrationModeMachine = setup({
  types: { context: {} as RegistrationModeContext, events: {} as RegistrationModeEvent },
  actors: {
    /** GET /api/registration. */
    loadMode: notWired<RegistrationMode>('registrationMode.loadMode'),
  },
}).createMachine({
  id: 'registrationMode',
  context: { mode: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadMode',
        src: 'loadMode',
        onDone: { target: 'known', actions: assign({ mode: ({ event }) => event.output }) },
        onError: { target: 'known', actions: assign({ mode: 'open' }) },
      },
    },
    known: { on: { 'registrationMode.reload': 'loading' } },
  },
});
