// Passkeys (docs/behaviour.md §10.7b): WebAuthn credentials kept in «Безопасность» → «Ключи доступа», used to sign in
// without a password («Войти с ключом доступа») or as the second step after the password. The ceremonies' options and
// the browser's answers travel as the JSON of @simplewebauthn (its browser half makes and reads them).
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { z } from 'zod';
import { Id } from './entities';
import { LIMITS } from './limits';

export const PASSKEY_NAME_MAX = 64;

export const Passkey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof Passkey>;
export const PasskeysResponse = z.object({ passkeys: z.array(Passkey) });

const PasskeyName = z
  .string()
  .trim()
  .min(1, 'Введите название ключа')
  .max(PASSKEY_NAME_MAX, `Название не длиннее ${PASSKEY_NAME_MAX} символов`);
const Password = z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax);

/** The browser's answer, checked in full on the server (@simplewebauthn/server); here only its size and shape. */
const credential = <T>() =>
  z
    .looseObject({
      id: z.string().min(1).max(1400),
      rawId: z.string().min(1).max(1400),
      type: z.literal('public-key'),
      response: z.looseObject({ clientDataJSON: z.string().max(4096) }),
    })
    .refine((v) => JSON.stringify(v).length <= 32_768, 'Ответ ключа доступа слишком велик')
    .transform((v) => v as unknown as T);

/** Adding a passkey gives a new way in: it needs the password, as resetting the second factor does. */
export const PasskeyRegisterOptionsBody = z.strictObject({ password: Password });
/** WebAuthn's options as @simplewebauthn makes them, passed on whole (only the challenge is named here). */
const CeremonyOptions = z.looseObject({ challenge: z.string() });
export type CreationOptions = PublicKeyCredentialCreationOptionsJSON;
export type RequestOptions = PublicKeyCredentialRequestOptionsJSON;
export const PasskeyRegisterOptionsResponse = z.object({ options: CeremonyOptions });
export const PasskeyRegisterBody = z.strictObject({
  name: PasskeyName,
  credential: credential<RegistrationResponseJSON>(),
});
export const PasskeyResponse = z.object({ passkey: Passkey });
export const PasskeyParams = z.strictObject({ id: Id });
export const PasskeyRenameBody = z.strictObject({ name: PasskeyName });
/** Removing one takes a way in (maybe the second step) away: the password, as turning the second factor off. */
export const PasskeyRemoveBody = z.strictObject({ password: Password });

/**
 * The options of a sign-in ceremony: without a body's challenge, for any passkey this site knows (the browser offers
 * the ones it keeps: no username typed); with the second step's challenge, for that account's passkeys.
 */
export const PasskeySignInOptionsBody = z.strictObject({
  challenge: z.string().min(1).max(1024, 'Вход истёк, введите пароль снова').optional(),
});
export const PasskeySignInOptionsResponse = z.object({ options: CeremonyOptions });
export const PasskeySignInBody = z.strictObject({
  credential: credential<AuthenticationResponseJSON>(),
  /** The second step's challenge, when the passkey follows the password. */
  challenge: z.string().min(1).max(1024, 'Вход истёк, введите пароль снова').optional(),
  /** «Запомнить этот браузер на 30 дней» (the second step only). */
  remember: z.boolean().optional(),
});
