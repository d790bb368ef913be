// The organisation's sign-in through an OpenID Connect provider (docs/administration.md, «Вход через организацию»;
// docs/behaviour.md §10.41). The browser goes to GET /api/auth/oidc/start and comes back through the provider to
// /api/auth/oidc/callback, which hands the answer to the page /auth/oidc; the page finishes it with the routes below.
import { z } from 'zod';
import { InviteCode } from './administration';
import { LIMITS } from './limits';

export { OIDC_PAGE, OIDC_START } from './oidc-paths';

export const OidcCompleteBody = z.strictObject({
  /** The provider's answer: the query string of the callback (`code`, `state`, `iss`, or `error`). */
  callback: z.string().max(4096),
});
/** The provider knows the person but no account is linked yet: they create one, or link theirs with its password. */
export const OidcPending = z.object({
  /** Signed and short-lived; names the provider's person (issuer and subject). */
  pendingLink: z.string(),
  displayName: z.string(),
  /** Whether the server's registration lets this person create an account now. */
  canCreate: z.boolean(),
  /** Whether an invite code is needed to create it («По приглашениям»). */
  needsInvite: z.boolean(),
});
export type OidcPending = z.infer<typeof OidcPending>;

export const OidcCreateBody = z.strictObject({
  pendingLink: z.string().min(1).max(2048),
  inviteCode: InviteCode.optional(),
});
export const OidcLinkBody = z.strictObject({
  pendingLink: z.string().min(1).max(2048),
  username: z.string().min(1, 'Введите никнейм').max(LIMITS.usernameMax),
  password: z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax),
});

/** «Способы входа» on the account page. */
export const SignInMethodsResponse = z.object({
  password: z.boolean(),
  /** The provider's name when this account is linked to it. */
  provider: z.string().nullable(),
});
export type SignInMethods = z.infer<typeof SignInMethodsResponse>;
