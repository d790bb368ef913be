// «Способы входа» on the account page (docs/behaviour.md §10.41): whether the account has a password and whether it
// is linked to the organisation's provider. Views import this module, never signInMethods.machine.ts.
import type { SignInMethods } from '../../../contract/oidc';
import type { MachineRef } from '../../shared/machine-ref';

export type { SignInMethods };

export const SIGN_IN_METHODS_FAILED = 'Не удалось узнать способы входа';

export interface SignInMethodsContext {
  methods: SignInMethods | null;
  error: string | null;
}

export type SignInMethodsEvent = { type: 'signInMethods.retry' };

export type SignInMethodsRef = MachineRef<SignInMethodsContext, SignInMethodsEvent>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** The account page's «Способы входа» (spawned while shown). */
    signInMethods: SignInMethodsRef;
  }
}
