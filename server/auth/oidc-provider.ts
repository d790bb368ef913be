// The organisation's OpenID Connect provider as this server, its client, sees it (openid-client): discovery, the
// authorization URL with PKCE, state and nonce, and the code exchange with every check of the answer. What the browser
// carries between the two legs (state, nonce, PKCE verifier) is a short-lived token signed with a key of its own.
import { createHmac, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import * as client from 'openid-client';
import type { OidcSettings } from '../config';
import { HttpError } from '../http/errors';

/** How long a round trip to the provider (and then the choice to create or link an account) may take. */
export const OIDC_ROUND_TRIP_SEC = 10 * 60;

export interface OidcPerson {
  issuer: string;
  subject: string;
  /** `preferred_username`, the base of a new account's username. */
  preferredUsername: string | null;
  displayName: string | null;
}

export interface RoundTrip {
  state: string;
  nonce: string;
  verifier: string;
}

export function createOidcProvider(settings: OidcSettings, secret: Uint8Array) {
  // Keys of their own, derived from the token secret: a round trip's token is never taken for a pending link's.
  const keyFor = (use: string) => createHmac('sha256', secret).update(`oidc/${use}/v1`).digest();
  const tripKey = keyFor('round-trip');
  const linkKey = keyFor('pending-link');
  // Plain http only for a provider on this machine (tests, a local try-out); anything else must be https.
  const insecure = settings.issuer.startsWith('http:');
  let discovered: Promise<client.Configuration> | null = null;

  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        undefined,
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((err) => {
        // Tried again at the next sign-in: the provider may come back.
        discovered = null;
        throw unreachable(err);
      });
    return discovered;
  }

  const refuse = (status: number, message: string) => new HttpError(status, message);
  const unreachable = (err: unknown) =>
    Object.assign(refuse(503, `${settings.name}: сервер входа недоступен, попробуйте позже`), { cause: err });

  return {
    name: settings.name,
    issuer: settings.issuer,

    /** Where to send the browser, and the signed token that carries its state, nonce and verifier. */
    async start(redirectUri: string): Promise<{ url: string; trip: string }> {
      const config = await configuration();
      const trip: RoundTrip = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile email',
        code_challenge: await client.calculatePKCECodeChallenge(trip.verifier),
        code_challenge_method: 'S256',
        state: trip.state,
        nonce: trip.nonce,
      });
      const token = await new SignJWT({ ...trip })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime(`${OIDC_ROUND_TRIP_SEC}s`)
        .sign(tripKey);
      return { url: url.href, trip: token };
    },

    /**
     * The person the provider vouches for, from its answer (`callback`, the query string it sent the browser back
     * with) and the round trip's token. Refuses a missing or foreign round trip, a state or nonce that is not this
     * trip's, a code already used, and the provider's own refusal.
     */
    async finish(redirectUri: string, callback: string, tripToken: string | null): Promise<OidcPerson> {
      const trip = tripToken ? await verified<RoundTrip>(tripToken, tripKey) : null;
      if (!trip) throw refuse(400, STALE);
      const config = await configuration();
      const params = new URLSearchParams(callback);
      if (params.has('error')) throw refuse(403, `${settings.name} не пустил вас: вход отклонён`);
      const current = new URL(redirectUri);
      current.search = params.toString();
      let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
      try {
        tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: trip.verifier,
          expectedState: trip.state,
          expectedNonce: trip.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        throw refusal(err);
      }
      const claims = tokens.claims();
      if (!claims) throw refuse(400, UNVERIFIED);
      // The profile may be only at the userinfo endpoint (a provider that keeps the ID token small).
      let info: client.UserInfoResponse;
      try {
        info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      } catch (err) {
        throw refusal(err);
      }
      const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
      return {
        issuer: claims.iss,
        subject: claims.sub,
        preferredUsername: text(info.preferred_username) ?? text(claims.preferred_username),
        displayName: text(info.name) ?? text(claims.name),
      };
    },

    /** A pending link: the provider's person, until they create an account or prove one of theirs. */
    pendingLink(person: OidcPerson): Promise<string> {
      return new SignJWT({ ...person })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setJti(randomUUID())
        .setExpirationTime(`${OIDC_ROUND_TRIP_SEC}s`)
        .sign(linkKey);
    },

    async pendingPerson(token: string): Promise<OidcPerson> {
      const person = await verified<OidcPerson>(token, linkKey);
      if (!person || typeof person.issuer !== 'string' || typeof person.subject !== 'string') throw refuse(400, STALE);
      return person;
    },
  };

  function refusal(err: unknown): HttpError {
    if (err instanceof client.AuthorizationResponseError) {
      return refuse(403, `${settings.name} не пустил вас: вход отклонён`);
    }
    if (err instanceof client.ResponseBodyError) {
      // invalid_grant: the code was used already, expired, or was not given to this trip; the provider refusing the
      // person at this step (disabled meanwhile) reads the same.
      return refuse(400, CODE_REFUSED);
    }
    const code = (err as { code?: string }).code;
    // openid-client wraps oauth4webapi's error, whose message names what did not match.
    const detail = `${(err as Error).message} ${((err as Error).cause as Error | undefined)?.message ?? ''}`;
    if (code === 'OAUTH_INVALID_RESPONSE' && /"state"/.test(detail)) return refuse(400, STALE);
    if (code?.startsWith('OAUTH_')) return refuse(400, UNVERIFIED);
    return unreachable(err);
  }
}

async function verified<T>(token: string, key: Uint8Array): Promise<T | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    return payload as T;
  } catch {
    return null;
  }
}

export const STALE = 'Вход устарел или начат в другой вкладке. Начните вход заново';
export const CODE_REFUSED = 'Код входа уже использован или устарел. Начните вход заново';
export const UNVERIFIED = 'Ответ сервера входа не прошёл проверку. Начните вход заново';

export type OidcProvider = ReturnType<typeof createOidcProvider>;
