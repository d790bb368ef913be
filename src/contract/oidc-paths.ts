// Where the organisation's sign-in goes (src/contract/oidc.ts), without zod so the client may import it as a value.

/** The page the provider's answer lands on (its query string passed on as it came). */
export const OIDC_PAGE = '/auth/oidc';
/** Where the browser leaves for the provider. */
export const OIDC_START = '/api/auth/oidc/start';
