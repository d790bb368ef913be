// The organisation's sign-in (protocol: oidcSignIn.protocol.ts). On the sign-in page it only leaves for the
// provider; on /auth/oidc it hands the provider's answer to the server: a linked person is signed in (the session
// takes the tokens, as after a password), anyone else chooses to create an account or to link theirs by its password.
// A refused answer (a stale or foreign round trip, a used code, the provider's refusal) shows the server's message
// and offers to start again.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  OIDC_CREATE_FAILED,
  OIDC_FAILED,
  OIDC_LINK_FAILED,
  OIDC_TAGS,
  type OidcSignInContext,
  type OidcSignInEffects,
  type OidcSignInEvent,
  type OidcSignInInput,
} from './oidcSignIn.protocol';

export * from './oidcSignIn.protocol';

type SignedIn = ResponseOf<'oidcLink'>;

export const oidcSignInMachine = setup({
  types: { context: {} as OidcSignInContext, events: {} as OidcSignInEvent, input: {} as OidcSignInInput },
  actors: {
    redirect: notWired('oidcSignIn.redirect') as OidcSignInEffects['redirect'],
    complete: notWired('oidcSignIn.complete') as OidcSignInEffects['complete'],
    create: notWired('oidcSignIn.create') as OidcSignInEffects['create'],
    link: notWired('oidcSignIn.link') as OidcSignInEffects['link'],
  },
  guards: {
    answered: ({ context }) => context.callback !== null,
    signedIn: ({ event }) => 'output' in event && (event.output as ResponseOf<'oidcComplete'>).signedIn !== null,
  },
  actions: {
    /** The session keeps the tokens and the app goes on as after a password's sign-in. */
    handOver: enqueueActions(({ system, enqueue }, signIn: SignedIn) => {
      const session = systemActor(system, 'session');
      if (session) enqueue.sendTo(session, { type: 'session.adopt', signIn });
    }),
  },
}).createMachine({
  id: 'oidcSignIn',
  context: ({ input }) => ({ callback: input.callback, pending: null, error: null }),
  initial: 'entering',
  states: {
    entering: { always: [{ guard: 'answered', target: 'completing' }, { target: 'ready' }] },
    ready: { on: { 'oidc.start': 'redirecting' } },
    redirecting: {
      tags: [OIDC_TAGS.busy],
      invoke: {
        src: 'redirect',
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, OIDC_FAILED) }),
        },
      },
    },
    completing: {
      tags: [OIDC_TAGS.busy],
      invoke: {
        id: 'complete',
        src: 'complete',
        input: ({ context }) => ({ callback: context.callback ?? '' }),
        onDone: [
          {
            guard: 'signedIn',
            target: 'done',
            actions: { type: 'handOver', params: ({ event }) => event.output.signedIn as SignedIn },
          },
          { target: 'choosing', actions: assign({ pending: ({ event }) => event.output.pending }) },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureMessage(event.error, OIDC_FAILED) }),
        },
      },
    },
    failed: {
      tags: [OIDC_TAGS.failed],
      on: { 'oidc.start': { target: 'redirecting', actions: assign({ error: null }) } },
    },
    choosing: {
      on: {
        'oidc.create': { target: 'creating', actions: assign({ error: null }) },
        'oidc.link': { target: 'linking', actions: assign({ error: null }) },
        'oidc.start': { target: 'redirecting', actions: assign({ error: null, pending: null }) },
      },
    },
    creating: {
      tags: [OIDC_TAGS.busy],
      invoke: {
        id: 'create',
        src: 'create',
        input: ({ context, event }) => {
          assertEvent(event, 'oidc.create');
          const pendingLink = context.pending?.pendingLink ?? '';
          return event.inviteCode ? { pendingLink, inviteCode: event.inviteCode } : { pendingLink };
        },
        onDone: { target: 'done', actions: { type: 'handOver', params: ({ event }) => event.output } },
        onError: {
          target: 'choosing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, OIDC_CREATE_FAILED) }),
        },
      },
    },
    linking: {
      tags: [OIDC_TAGS.busy],
      invoke: {
        id: 'link',
        src: 'link',
        input: ({ context, event }) => {
          assertEvent(event, 'oidc.link');
          return {
            pendingLink: context.pending?.pendingLink ?? '',
            username: event.username,
            password: event.password,
          };
        },
        onDone: { target: 'done', actions: { type: 'handOver', params: ({ event }) => event.output } },
        onError: {
          target: 'choosing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, OIDC_LINK_FAILED) }),
        },
      },
    },
    // The session is signed in: the app's guard takes the page away.
    done: { tags: [OIDC_TAGS.busy] },
  },
});
