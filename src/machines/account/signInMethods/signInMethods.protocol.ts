// «Способы входа» on the account page (docs/behaviour.md §10.41): whether the account has a password and whether it
// is linked to the organisation's provider. Views import this module, never signInMethods.machine.ts.
import type { SignInMethods } from '../../../contract/oidc';
import type { MachineRef } from '../../shared/machine-ref';
import type { ResponseOf } from '../../../contract/api';
import type { PromiseActorLogic } from 'xstate';

export type { SignInMethods };

export const SIGN_IN_METHODS_FAILED = 'Не удалось узнать способы входа';

export interface SignInMethodsContext {
  methods: SignInMethods | null;
  error: string | null;
}

export type SignInMethodsEvent = { type: 'signInMethods.retry' };

export type SignInMethodsRef = MachineRef<SignInMethodsContext, SignInMethodsEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/account/account.effects.ts). */
export interface SignInMethodsEffects {
  /** GET /api/auth/methods. */
  loadMethods: PromiseActorLogic<ResponseOf<'signInMethods'>, unknown>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The account page's «Способы входа» (spawned while shown). */
    signInMethods: SignInMethodsRef;
  }
}
