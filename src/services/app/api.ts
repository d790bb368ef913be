// The typed API client on ofetch (docs/behaviour.md §6, §7): base path rules, bearer header on every request,
// credentials sent, no request timeout, and after a 401 one refresh and one repeat of the request. Every failure
// leaves as a RequestFailure (src/contract/failure.ts): the status and the server's Russian message.
import type { $Fetch } from 'ofetch';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api';
import { RequestFailure } from '../../contract/failure';
import type { RouteInfo, RouteName, Routes } from '../../contract/routes';
import { takeEarlyAnswer } from './early-requests';
import { apiBaseUrl, buildSettings } from './endpoints';
import { afterFirstPaint } from './first-paint';

/** How the client reads and renews the session; the app wires it to the session actor. */
export interface AuthBridge {
  accessToken(): string | null;
  refreshToken(): string | null;
  /** Renews the tokens (one refresh for any number of waiting requests); resolves the new access token or null. */
  refresh(): Promise<string | null>;
}

export interface CallOptions<K extends RouteName> {
  body?: BodyOf<K>;
  query?: QueryOf<K>;
  params?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiClient {
  call<K extends RouteName>(name: K, options?: CallOptions<K>): Promise<ResponseOf<K>>;
  /**
   * The API's absolute address and the current access token, for requests made off the main thread (the secret
   * chats' registration in the crypto worker); such a request answered 401 comes back here to be refreshed.
   */
  access?(): { baseURL: string; token: string | null };
}

export function defaultBaseUrl(): string {
  return typeof window === 'undefined' ? '/api' : apiBaseUrl(window.location, buildSettings());
}

/**
 * The first screen's routes (its early GETs, src/services/app/early-requests.ts), here so that their answers are taken
 * at once; the whole table (src/contract/routes.ts) comes with ofetch. The type keeps them equal to the table's.
 */
const FIRST_SCREEN_ROUTES: Partial<Record<RouteName, RouteInfo>> = {
  me: { method: 'GET', path: '/status/me', auth: true },
  conversations: { method: 'GET', path: '/conversations', auth: true },
  contacts: { method: 'GET', path: '/contacts', auth: true },
} satisfies Pick<Routes, 'me' | 'conversations' | 'contacts'>;

/**
 * ofetch and the route table come with the first request that is not an early answer (the first screen's are), not
 * with the first bundle; a failed fetch of their code fails that request as unanswered, and the next one asks again.
 */
let transport: Promise<typeof import('./api-transport')> | null = null;
const importTransport = () =>
  (transport ??= import('./api-transport').catch((err: unknown) => {
    transport = null;
    throw err;
  }));
/**
 * On a load of the chat list its own requests are the early ones, and the others wait for its paint
 * (first-paint.ts); but a request whose early answer failed, a token refresh and the repeat after it are on the
 * list's path (an expired token), and go at once.
 */
const loadTransport = (urgent: boolean) => (urgent ? importTransport() : afterFirstPaint(importTransport));

const noAuth: AuthBridge = { accessToken: () => null, refreshToken: () => null, refresh: async () => null };

export function createApiClient(options: { baseURL?: string; auth?: AuthBridge } = {}): ApiClient {
  const auth = options.auth ?? noAuth;
  const baseURL = options.baseURL ?? defaultBaseUrl();
  let fetcher: $Fetch | null = null;
  const $fetch = (t: { createFetch(baseURL: string): $Fetch }) => (fetcher ??= t.createFetch(baseURL));

  async function send<K extends RouteName>(
    name: K,
    o: CallOptions<K>,
    token: string | null,
    repeat = false,
  ): Promise<ResponseOf<K>> {
    const urgent = repeat || name === 'refresh';
    const route = FIRST_SCREEN_ROUTES[name] ?? (await loadTransport(urgent)).routes[name];
    const path = route.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(o.params?.[key] ?? ''));
    // A GET the page asked for before the app started (src/services/app/early-requests.ts): its answer, else ask.
    const early = route.method === 'GET' ? earlyAnswer(baseURL, path, o.query, token) : null;
    if (early) return early.then((data) => (data === undefined ? plain(true) : (data as ResponseOf<K>)));
    return plain(urgent);

    async function plain(now: boolean) {
      const f = $fetch(await loadTransport(now));
      return f<ResponseOf<K>>(path, {
        method: route.method,
        body: o.body as Record<string, unknown> | undefined,
        query: o.query as Record<string, unknown> | undefined,
        headers: token ? { Authorization: `Bearer ${token}` } : undefined,
        signal: o.signal,
      });
    }
  }

  return {
    access: () => ({
      baseURL: typeof location === 'undefined' ? baseURL : new URL(baseURL, location.href).href.replace(/\/$/, ''),
      token: auth.accessToken(),
    }),
    async call(name, o = {}) {
      const token = auth.accessToken();
      try {
        return await send(name, o, token);
      } catch (err) {
        const failure = toFailure(err);
        // The refresh call itself is never refreshed; without a refresh token the original error stands.
        if (failure.status !== 401 || name === 'refresh' || !auth.refreshToken()) throw failure;
        const current = auth.accessToken();
        // Another request may have refreshed meanwhile: then repeat with its token instead of refreshing again.
        const fresh = current && current !== token ? current : await auth.refresh();
        if (!fresh) throw failure;
        return await send(name, o, fresh, true).catch((again: unknown) => {
          throw toFailure(again);
        });
      }
    },
  };
}

/** The answer src/services/app/early-requests.ts got for this GET before the app started, if it matches (else null). */
function earlyAnswer(
  baseURL: string,
  path: string,
  query: object | undefined,
  token: string | null,
): Promise<unknown> | null {
  if (typeof location === 'undefined') return null;
  const search = query ? new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString() : '';
  return takeEarlyAnswer(new URL(`${baseURL}${path}${search ? `?${search}` : ''}`, location.href).href, token);
}

/**
 * ofetch's error as the domain failure: its status (none when no answer came) and the server's `{ message }`. Known
 * by its name: the class comes with ofetch's code, which loads later.
 */
function toFailure(err: unknown): RequestFailure {
  if (!(err instanceof Error) || err.name !== 'FetchError') return new RequestFailure(null, null);
  const { status, data: body } = err as Error & { status?: number; data?: unknown };
  const data = body as { message?: unknown } | undefined;
  const message = typeof data?.message === 'string' && data.message ? data.message : null;
  return new RequestFailure(status ?? null, message);
}
