// «Войти с ключом доступа» (protocol: passkeySignIn.protocol.ts): the browser's prompt and the server's check in one
// effect; a passkey it accepts signs in as a password would (the session takes the tokens), anything else is said on
// the page and may be tried again.
import { assign, enqueueActions, setup } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  PASSKEY_SIGN_IN_FAILED,
  type PasskeySignInContext,
  type PasskeySignInEffects,
  type PasskeySignInEvent,
} from './passkeySignIn.protocol';

export * from './passkeySignIn.protocol';

type SignedIn = ResponseOf<'passkeySignIn'>;

export const passkeySignInMachine = setup({
  types: { context: {} as PasskeySignInContext, events: {} as PasskeySignInEvent },
  actors: {
    signIn: notWired('passkeySignIn.signIn') as PasskeySignInEffects['signIn'],
  },
  actions: {
    handOver: enqueueActions(({ system, enqueue }, signIn: SignedIn) => {
      const session = systemActor(system, 'session');
      if (session) enqueue.sendTo(session, { type: 'session.adopt', signIn });
    }),
  },
}).createMachine({
  id: 'passkeySignIn',
  context: { error: null },
  initial: 'ready',
  states: {
    ready: { on: { 'passkey.start': { target: 'signingIn', actions: assign({ error: null }) } } },
    signingIn: {
      tags: ['busy'],
      invoke: {
        src: 'signIn',
        onDone: { target: 'done', actions: { type: 'handOver', params: ({ event }) => event.output } },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, PASSKEY_SIGN_IN_FAILED) }),
        },
      },
    },
    // The session is signed in: the app's guard takes the page away.
    done: { tags: ['busy'] },
  },
});
