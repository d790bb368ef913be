// Signing in (server/auth/): registration, passwords, tokens, the second factor, passkeys, the organisation's
// provider, sign-ins («Устройства») and account deletion.
// Each route's method and path are in ./auth.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { InviteCode } from '../administration';
import { DisplayName, Id, NUL_MESSAGE, noNul, Password, User, Username } from '../entities';
import { LIMITS } from '../limits';
import { OidcCompleteBody, OidcCreateBody, OidcLinkBody, OidcPending, SignInMethodsResponse } from '../oidc';
import {
  PasskeyParams,
  PasskeyRegisterBody,
  PasskeyRegisterOptionsBody,
  PasskeyRegisterOptionsResponse,
  PasskeyRemoveBody,
  PasskeyRenameBody,
  PasskeyResponse,
  PasskeySignInBody,
  PasskeySignInOptionsBody,
  PasskeySignInOptionsResponse,
  PasskeysResponse,
} from '../passkeys';
import { authRoutes } from './auth.routes';
import { MeResponse } from './users';
import { Ok, withSchemas } from './with-schemas';

export const RegisterBody = z.strictObject({
  username: Username,
  displayName: DisplayName,
  password: Password,
  /** Needed while registration is «По приглашениям» (src/contract/administration.ts). */
  inviteCode: InviteCode.optional(),
});
export const LoginBody = z.strictObject({
  username: z.string().min(1, 'Введите никнейм').max(LIMITS.usernameMax).refine(noNul, NUL_MESSAGE),
  password: z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax),
  /** The device marks this browser was given at earlier sign-ins (server/auth/device-marks.ts), newest first. */
  deviceMarks: z.array(z.string().max(128)).max(10).optional(),
});
export const Tokens = z.object({ accessToken: z.string(), refreshToken: z.string() });
/** `deviceMark`: this browser's mark for the account, to keep and send with later sign-ins (survives sign-out). */
/** `twoFactorSetup`: the server requires a second factor of this account, which has none yet: set it up now. */
export const SignedIn = Tokens.extend({
  user: User,
  deviceMark: z.string().optional(),
  twoFactorSetup: z.boolean().optional(),
});
/**
 * The password was right and the account has a second factor this browser is not remembered for: no session yet,
 * a challenge for `loginSecondFactor` (valid five minutes).
 */
export const SecondFactorNeeded = z.object({
  secondFactor: z.object({
    challenge: z.string(),
    /** Which ways the account has: a code from the app (and recovery codes), a passkey (§10.7b). */
    totp: z.boolean(),
    passkey: z.boolean(),
  }),
});
export const LoginResponse = z.union([SignedIn, SecondFactorNeeded]);
const OtpCode = z.string().trim().min(1, 'Введите код').max(32, 'Код слишком длинный').refine(noNul, NUL_MESSAGE);
export const LoginSecondFactorBody = z.strictObject({
  challenge: z.string().min(1, 'Вход истёк, введите пароль снова').max(1024, 'Вход истёк, введите пароль снова'),
  /** Six digits from the app, or a recovery code. */
  code: OtpCode,
  /** «Запомнить этот браузер на 30 дней». */
  remember: z.boolean().optional(),
});
/** «Безопасность»: whether the second factor is on, the recovery codes left, and whether the server requires it. */
export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  required: z.boolean(),
});
/** Setting up anew while it is on (a reset) needs the password; the first set-up does not. */
export const TwoFactorBeginBody = z.strictObject({
  password: z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax).optional(),
});
/** The new secret (as text, to type in) and its otpauth:// address (for the QR code). */
export const TwoFactorBeginResponse = z.object({ secret: z.string(), uri: z.string() });
export const TwoFactorConfirmBody = z.strictObject({ code: OtpCode });
/** Shown once: only their digests are kept. */
export const RecoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export const TwoFactorPasswordBody = z.strictObject({
  password: z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax),
});
/** The end of a sign-in through the organisation's provider (src/contract/oidc.ts): exactly one of the two is set. */
export const OidcCompleteResponse = z.object({ signedIn: SignedIn.nullable(), pending: OidcPending.nullable() });
export type OidcCompleteResponse = z.infer<typeof OidcCompleteResponse>;
export const RefreshBody = z.strictObject({ refreshToken: z.string().min(1).max(512) });
export const LogoutBody = RefreshBody;
/** A sign-in as «Устройства» lists it: browser and system from its user agent (null when unknown). */
export const SignIn = z.object({
  id: z.string(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  /** The sign-in making this request («Это устройство»). */
  current: z.boolean(),
  /** The name of the passkey that signed it in (while that passkey is kept), or null. */
  passkey: z.string().nullable(),
});
export const SessionsResponse = z.object({ sessions: z.array(SignIn) });
export const SessionParams = z.strictObject({ id: Id });
export const DeleteAccountBody = z.strictObject({
  password: z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax),
});
export const ChangePasswordBody = z.strictObject({
  currentPassword: z.string().min(1, 'Введите текущий пароль').max(LIMITS.passwordMax),
  newPassword: Password,
});

/** The routes of ./auth.routes with their schemas. */
export const authApi = withSchemas(authRoutes, {
  register: { body: RegisterBody, response: MeResponse },
  login: { body: LoginBody, response: LoginResponse },
  refresh: { body: RefreshBody, response: Tokens },
  loginSecondFactor: { body: LoginSecondFactorBody, response: SignedIn },
  twoFactor: { response: TwoFactorStatus },
  twoFactorBegin: { body: TwoFactorBeginBody, response: TwoFactorBeginResponse },
  twoFactorConfirm: { body: TwoFactorConfirmBody, response: RecoveryCodesResponse },
  twoFactorDisable: { body: TwoFactorPasswordBody, response: Ok },
  recoveryCodes: { body: TwoFactorPasswordBody, response: RecoveryCodesResponse },
  passkeys: { response: PasskeysResponse },
  passkeyRegisterOptions: { body: PasskeyRegisterOptionsBody, response: PasskeyRegisterOptionsResponse },
  passkeyRegister: { body: PasskeyRegisterBody, response: PasskeyResponse },
  passkeyRename: { params: PasskeyParams, body: PasskeyRenameBody, response: PasskeyResponse },
  passkeyRemove: { params: PasskeyParams, body: PasskeyRemoveBody, response: Ok },
  passkeySignInOptions: { body: PasskeySignInOptionsBody, response: PasskeySignInOptionsResponse },
  passkeySignIn: { body: PasskeySignInBody, response: SignedIn },
  logout: { body: LogoutBody, response: Ok },
  sessions: { response: SessionsResponse },
  endSession: { params: SessionParams, response: Ok },
  endOtherSessions: { response: Ok },
  changePassword: { body: ChangePasswordBody, response: Ok },
  deleteAccount: { body: DeleteAccountBody, response: Ok },
  oidcComplete: { body: OidcCompleteBody, response: OidcCompleteResponse },
  oidcCreate: { body: OidcCreateBody, response: SignedIn },
  oidcLink: { body: OidcLinkBody, response: SignedIn },
  signInMethods: { response: SignInMethodsResponse },
});
