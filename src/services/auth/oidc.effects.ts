// The organisation's sign-in's effects: the round trip to the provider (the page leaves for the server's start
// route) and the routes that finish it.
import { fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import { OIDC_START } from '../../contract/oidc-paths';
import { type OidcSignInEffects, oidcSignInMachine } from '../../machines/auth/oidcSignIn/oidcSignIn.machine';
import type { Services } from '../app/services';

export const wireOidcSignIn = (s: Services) =>
  oidcSignInMachine.provide({
    actors: {
      redirect: fromPromise<never>(() => {
        window.location.assign(OIDC_START);
        return new Promise<never>(() => {});
      }),
      complete: fromPromise(({ input }: { input: BodyOf<'oidcComplete'> }) =>
        s.api.call('oidcComplete', { body: input }),
      ),
      create: fromPromise(({ input }: { input: BodyOf<'oidcCreate'> }) => s.api.call('oidcCreate', { body: input })),
      link: fromPromise(({ input }: { input: BodyOf<'oidcLink'> }) => s.api.call('oidcLink', { body: input })),
    } satisfies OidcSignInEffects,
  });
