// Where the crypto worker sends its own requests (crypto/register-core.ts): the API's address and the session's
// access token as kept for the page (none when the browser keeps nothing: the worker is then refused and the page
// registers by its own requests).
import type { Services } from '../services';
import { defaultBaseUrl } from '../../../services/app/api';
import type { ServerAccess } from '../../../services/secretChats/crypto/secret-crypto';

export const serverAccess = (s: Services) => (): ServerAccess => ({
  baseURL: new URL(defaultBaseUrl(), location.href).href,
  token: s.sessionStore.load()?.accessToken ?? null,
});
