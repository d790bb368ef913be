// The calls the session actor makes. They carry no bearer token and are never refreshed.
import type { BodyOf, ResponseOf } from '../../contract/api';
import { type ApiClient, createApiClient } from '../app/api';

export interface AuthApi {
  login(body: BodyOf<'login'>): Promise<ResponseOf<'login'>>;
  /** The second step after a right password (a code from the app or a recovery code). */
  loginSecondFactor(body: BodyOf<'loginSecondFactor'>): Promise<ResponseOf<'loginSecondFactor'>>;
  /** A passkey's sign-in (docs/behaviour.md §10.7b): its options, then the browser's answer. */
  passkeySignInOptions(body: BodyOf<'passkeySignInOptions'>): Promise<ResponseOf<'passkeySignInOptions'>>;
  passkeySignIn(body: BodyOf<'passkeySignIn'>): Promise<ResponseOf<'passkeySignIn'>>;
  register(body: BodyOf<'register'>): Promise<ResponseOf<'register'>>;
  /** `signal` abandons the request (the session stops waiting for an answer that does not come). */
  refresh(refreshToken: string, signal?: AbortSignal): Promise<ResponseOf<'refresh'>>;
  logout(refreshToken: string): Promise<ResponseOf<'logout'>>;
  health(): Promise<ResponseOf<'health'>>;
}

export function createAuthApi(bare: ApiClient = createApiClient()): AuthApi {
  return {
    login: (body) => bare.call('login', { body }),
    loginSecondFactor: (body) => bare.call('loginSecondFactor', { body }),
    passkeySignInOptions: (body) => bare.call('passkeySignInOptions', { body }),
    passkeySignIn: (body) => bare.call('passkeySignIn', { body }),
    register: (body) => bare.call('register', { body }),
    refresh: (refreshToken, signal) => bare.call('refresh', { body: { refreshToken }, signal }),
    logout: (refreshToken) => bare.call('logout', { body: { refreshToken } }),
    health: () => bare.call('health'),
  };
}

/** Round-trip time of one health request, in whole milliseconds. */
export async function measurePing(auth: Pick<AuthApi, 'health'>): Promise<number> {
  const started = performance.now();
  await auth.health();
  return Math.round(performance.now() - started);
}
