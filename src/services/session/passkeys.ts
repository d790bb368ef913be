// The browser's half of passkeys (docs/behaviour.md §10.7b) through @simplewebauthn/browser, loaded when first used:
// the server's options handed to the browser's prompt, and its answer handed back. Closing the prompt (or its timing
// out) rejects with the browser's error, which carries no server message: the machines show their own text then.
import type { BodyOf, ResponseOf } from '../../contract/api';
import type { CreationOptions, RequestOptions } from '../../contract/passkeys';
import type { AuthApi } from './auth-api';

type SignedIn = ResponseOf<'passkeySignIn'>;

/**
 * Signs in with a passkey: without `challenge` any passkey this browser keeps for the site (no username typed);
 * with the second step's challenge, one of that account's.
 */
export async function signInWithPasskey(
  auth: Pick<AuthApi, 'passkeySignInOptions' | 'passkeySignIn'>,
  step: { challenge: string; remember: boolean } | null = null,
): Promise<SignedIn> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const { options } = await auth.passkeySignInOptions(step ? { challenge: step.challenge } : {});
  // The contract checks only the answer's shape; the server reads the rest (@simplewebauthn/server).
  const credential = (await startAuthentication({
    optionsJSON: options as unknown as RequestOptions,
  })) as unknown as BodyOf<'passkeySignIn'>['credential'];
  const body: BodyOf<'passkeySignIn'> = step
    ? { credential, challenge: step.challenge, remember: step.remember }
    : { credential };
  return auth.passkeySignIn(body);
}

export interface PasskeyCalls {
  registerOptions(body: BodyOf<'passkeyRegisterOptions'>): Promise<ResponseOf<'passkeyRegisterOptions'>>;
  register(body: BodyOf<'passkeyRegister'>): Promise<ResponseOf<'passkeyRegister'>>;
}

/** Adds a passkey: the password checked with the options, the browser makes the key, the server keeps it. */
export async function addPasskey(calls: PasskeyCalls, input: { password: string; name: string }) {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const { options } = await calls.registerOptions({ password: input.password });
  const credential = (await startRegistration({
    optionsJSON: options as unknown as CreationOptions,
  })) as unknown as BodyOf<'passkeyRegister'>['credential'];
  return (await calls.register({ name: input.name, credential })).passkey;
}
