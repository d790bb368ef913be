// The account page's «Способы входа»: the ways the user can sign in (password, passkeys, the organisation's sign-in).
import { fromPromise } from 'xstate';
import { signInMethodsMachine } from '../../machines/account/signInMethods/signInMethods.machine';
import type { Services } from '../app/services';

export const wireSignInMethods = (s: Services) =>
  signInMethodsMachine.provide({
    actors: { loadMethods: fromPromise(() => s.api.call('signInMethods')) },
  });
