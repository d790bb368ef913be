// One certificate order over ACME (RFC 8555) with the HTTP-01 challenge, through acme-client: the CA asks for
// http://<domain>/.well-known/acme-challenge/<token> on port 80, which http-port.ts answers from `challenges`.
import acme from 'acme-client';

/** Tokens the CA is about to fetch, and the key authorizations it must read there. */
export type Challenges = Map<string, string>;

export interface OrderOptions {
  directoryUrl: string;
  domain: string;
  email: string | null;
  /** The ACME account's key (PEM), kept across restarts so one account holds every order. */
  accountKey: string;
  /** The account's URL once registered (kept beside its key): later orders skip registering again. */
  accountUrl: string | null;
  challenges: Challenges;
}

/** acme-client's own knobs on its axios instance (not in its types). */
export interface AcmeRetrySettings {
  retryMaxAttempts: number;
  /** Seconds, times the attempt's number. */
  retryDefaultDelay: number;
}

/** A CA that does not answer must not hold a start or a renewal for ever. */
const ACME_REQUEST_TIMEOUT_MS = 30_000;
acme.axios.defaults.timeout = ACME_REQUEST_TIMEOUT_MS;
// acme-client retries a CA's 5xx, 429 or a refused connection 5 times, 5 s apart and growing (75 s): three tries
// over 12 s ride out a hiccup without holding a start that long; the renewal timer tries again in an hour anyway.
const settings = acme.axios.defaults as unknown as { acmeSettings: AcmeRetrySettings };
settings.acmeSettings = { ...settings.acmeSettings, retryMaxAttempts: 3, retryDefaultDelay: 2 };

export async function newAccountKey(): Promise<string> {
  return (await acme.crypto.createPrivateEcdsaKey()).toString();
}

/** Orders a certificate for `domain`: its new private key and the chain the CA issued (both PEM). */
export async function orderCertificate(o: OrderOptions): Promise<{ key: string; cert: string; accountUrl: string }> {
  const client = new acme.Client({
    directoryUrl: o.directoryUrl,
    accountKey: o.accountKey,
    ...(o.accountUrl ? { accountUrl: o.accountUrl } : {}),
  });
  const [key, csr] = await acme.crypto.createCsr({ commonName: o.domain }, await acme.crypto.createPrivateEcdsaKey());
  const cert = await client.auto({
    csr,
    email: o.email ?? undefined,
    termsOfServiceAgreed: true,
    challengePriority: ['http-01'],
    // acme-client's own check fetches the challenge through this machine's resolver and port 80 first; behind
    // NAT that often cannot reach the machine itself although the CA can. The CA's answer is what counts.
    skipChallengeVerification: true,
    challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
      o.challenges.set(challenge.token, keyAuthorization);
    },
    challengeRemoveFn: async (_authz, challenge) => {
      o.challenges.delete(challenge.token);
    },
  });
  return { key: key.toString(), cert, accountUrl: client.getAccountUrl() };
}
