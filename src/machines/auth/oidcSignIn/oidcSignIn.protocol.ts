// The organisation's sign-in (docs/behaviour.md §10.41), the page /auth/oidc and the sign-in page's button: the round
// trip to the provider, its answer, and the step that creates an account or links an existing one by its password.
// Views import this module, never oidcSignIn.machine.ts.
import type { OidcPending } from '../../../contract/oidc';
import type { MachineRef } from '../../shared/machine-ref';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import type { PromiseActorLogic } from 'xstate';

export type { OidcPending };

export const OIDC_FAILED = 'Не удалось войти через организацию. Попробуйте ещё раз';
export const OIDC_LINK_FAILED = 'Не удалось связать учётные записи';
export const OIDC_CREATE_FAILED = 'Не удалось создать учётную запись';

export interface OidcSignInInput {
  /** The provider's answer as the page got it (its query string), or null on the sign-in page. */
  callback: string | null;
}

export interface OidcSignInContext {
  callback: string | null;
  /** The provider knows the person, no account is linked yet. */
  pending: OidcPending | null;
  error: string | null;
}

export type OidcSignInEvent =
  /** «Войти через …»: off to the provider (the page leaves). */
  | { type: 'oidc.start' }
  /** «Создать учётную запись» (with a code while registration is «По приглашениям»). */
  | { type: 'oidc.create'; inviteCode?: string }
  /** «Связать с существующей учётной записью»: its username and password. */
  | { type: 'oidc.link'; username: string; password: string };

export const OIDC_TAGS = { busy: 'busy', failed: 'failed' } as const;

export type OidcSignInRef = MachineRef<OidcSignInContext, OidcSignInEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/auth/oidc.effects.ts). */
export interface OidcSignInEffects {
  /** Sends the browser to GET /api/auth/oidc/start; the page leaves, so it never settles unless it fails. */
  redirect: PromiseActorLogic<never, unknown>;
  /** POST /api/auth/oidc/complete. */
  complete: PromiseActorLogic<ResponseOf<'oidcComplete'>, BodyOf<'oidcComplete'>>;
  /** POST /api/auth/oidc/create. */
  create: PromiseActorLogic<ResponseOf<'oidcLink'>, BodyOf<'oidcCreate'>>;
  /** POST /api/auth/oidc/link. */
  link: PromiseActorLogic<ResponseOf<'oidcLink'>, BodyOf<'oidcLink'>>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The sign-in page's button and the page /auth/oidc (spawned while shown). */
    oidcSignIn: OidcSignInRef;
  }
}
