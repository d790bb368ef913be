// Texts the sign-in routes share (auth.routes.ts, oidc.routes.ts, and whoever else refuses a sign-in).
export const ACCOUNT_DEACTIVATED = 'Аккаунт отключён администратором';
