// @vitest-environment jsdom
// src/services/app/early-requests.ts: the first screen's GETs asked before the app's code runs, taken once by the API
// client. Against a real HTTP server on loopback; the constants are the app's own.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../contract/routes';
import { SESSION_STORAGE_KEY } from '../session/storage';
import {
  EARLY_ANSWER_TTL_MS,
  EARLY_GETS,
  resetEarlyRequests,
  SESSION_KEY,
  startEarlyRequests,
  takeEarlyAnswer,
} from './early-requests';

let server: http.Server;
let base: string;
const seen: { url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization });
    const ok = req.headers.authorization === 'Bearer good';
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(JSON.stringify(ok ? { path: req.url } : { message: 'Требуется вход' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  resetEarlyRequests();
  localStorage.clear();
  seen.length = 0;
});

const signIn = (accessToken: string) =>
  localStorage.setItem(SESSION_KEY, JSON.stringify({ user: { id: 'u1' }, accessToken, refreshToken: 'r' }));
const page = 'http://localhost/';

describe('early requests', () => {
  it('use the app’s storage key and the paths the first screen asks for', () => {
    expect(SESSION_KEY).toBe(SESSION_STORAGE_KEY);
    expect(EARLY_GETS).toEqual([routes.me.path, routes.conversations.path, `${routes.contacts.path}?filter=all`]);
    for (const name of ['me', 'conversations', 'contacts'] as const) expect(routes[name].method).toBe('GET');
  });

  it('ask nothing without a stored session', () => {
    startEarlyRequests(base, page);
    expect(takeEarlyAnswer(`${base}/conversations`, null)).toBeNull();
    expect(seen).toEqual([]);
  });

  it('ask each path once with the stored token; each answer is taken once, by the same token only', async () => {
    signIn('good');
    startEarlyRequests(base, page);
    startEarlyRequests(base, page); // a second start asks nothing more
    expect(takeEarlyAnswer(`${base}/conversations`, 'other')).toBeNull();
    const list = takeEarlyAnswer(`${base}/conversations`, 'good');
    expect(await list).toEqual({ path: '/api/conversations' });
    expect(takeEarlyAnswer(`${base}/conversations`, 'good')).toBeNull();
    expect(await takeEarlyAnswer(`${base}/contacts?filter=all`, 'good')).toEqual({ path: '/api/contacts?filter=all' });
    expect(seen.map((s) => s.url).sort()).toEqual(['/api/contacts?filter=all', '/api/conversations', '/api/status/me']);
    expect(new Set(seen.map((s) => s.auth))).toEqual(new Set(['Bearer good']));
  });

  it('resolve undefined for an answer that is not OK (the client then asks itself), and expire unused', async () => {
    signIn('stale');
    startEarlyRequests(base, page, 1_000);
    expect(await takeEarlyAnswer(`${base}/status/me`, 'stale', 1_000)).toBeUndefined();
    expect(takeEarlyAnswer(`${base}/conversations`, 'stale', 1_000 + EARLY_ANSWER_TTL_MS + 1)).toBeNull();
    expect(takeEarlyAnswer(`${base}/contacts?filter=all`, 'stale', 1_000)).toBeNull(); // all dropped with the first late ask
  });
});
