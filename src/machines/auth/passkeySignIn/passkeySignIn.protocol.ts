// «Войти с ключом доступа» on the sign-in page (docs/behaviour.md §10.7b): no username typed, the browser offers the
// passkeys it keeps for this site. Views import this module, never passkeySignIn.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { ResponseOf } from '../../../contract/api';
import type { PromiseActorLogic } from 'xstate';

/** The sign-in failed without the server's word: the browser's prompt was closed or timed out, or no connection. */
export const PASSKEY_SIGN_IN_FAILED = 'Не удалось войти с ключом доступа. Попробуйте ещё раз';

export interface PasskeySignInContext {
  error: string | null;
}

export type PasskeySignInEvent = { type: 'passkey.start' };

export type PasskeySignInRef = MachineRef<PasskeySignInContext, PasskeySignInEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/auth/auth.effects.ts). */
export interface PasskeySignInEffects {
  /** The options, the browser's prompt, then POST /api/auth/passkeys/sign-in. */
  signIn: PromiseActorLogic<ResponseOf<'passkeySignIn'>, unknown>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The sign-in page's «Войти с ключом доступа» (spawned while shown). */
    passkeySignIn: PasskeySignInRef;
  }
}
