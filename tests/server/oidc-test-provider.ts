// A real OpenID Connect provider (oidc-provider) on loopback for the organisation's sign-in: one confidential client,
// PKCE required, accounts the test names. Its interaction page signs in whoever the test chose (`nextSubject`)
// without a form, or refuses a disabled person as a provider refuses a disabled account. `signIn` drives a whole
// round trip the way a browser would (redirects and cookies), returning the query the provider sent back.
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestPerson {
  preferred_username?: string;
  name?: string;
  email?: string;
  /** Disabled at the provider: it refuses them. */
  disabled?: boolean;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  people: Map<string, TestPerson>;
  /** Whom the next interaction signs in. */
  nextSubject: string;
  /** The messenger's callback, registered before the first request. */
  redirectUris: string[];
  /** Follows the authorization URL to the callback as `subject`; the callback's query string (with «?»). */
  signIn(authorizationUrl: string, subject: string): Promise<string>;
  close(): Promise<void>;
}

export async function startTestProvider(): Promise<TestProvider> {
  let provider: Provider | null = null;
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const op: TestProvider = {
    issuer,
    clientId: 'beseda',
    clientSecret: 'beseda-test-secret-0123456789abcdef',
    people: new Map(),
    nextSubject: '',
    redirectUris: [],
    signIn,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function create(): Provider {
    const p = new Provider(issuer, {
      clients: [
        {
          client_id: op.clientId,
          client_secret: op.clientSecret,
          redirect_uris: op.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      pkce: { required: () => true },
      claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
      features: { devInteractions: { enabled: false } },
      cookies: { keys: ['test-cookie-key'] },
      // Keys and lifetimes of its own, so it does not warn about development defaults.
      jwks: {
        keys: [
          { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), use: 'sig' },
        ],
      },
      ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      async findAccount(_ctx, sub) {
        const person = op.people.get(sub);
        if (!person || person.disabled) return undefined;
        return {
          accountId: sub,
          claims: async () => ({ sub, ...person, disabled: undefined }),
        };
      },
    });
    // Its warnings about development keys are no news in a test.
    p.on('server_error', () => {});
    return p;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    provider ??= create();
    if (req.url?.startsWith('/interaction/')) {
      const details = await provider.interactionDetails(req, res);
      const accountId = op.nextSubject;
      const person = op.people.get(accountId);
      if (!person || person.disabled) {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'account disabled' },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    provider.callback()(req, res);
  }

  async function signIn(authorizationUrl: string, subject: string): Promise<string> {
    op.nextSubject = subject;
    const jar = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      if (op.redirectUris.some((r) => url.startsWith(r))) return new URL(url).search;
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const [name, value] = pair.split('=', 2);
        jar.set(name.trim(), value ?? '');
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`the provider stopped at ${url}: ${res.status} ${await res.text()}`);
      url = new URL(location, url).href;
    }
    throw new Error('too many redirects at the provider');
  }

  return op;
}
