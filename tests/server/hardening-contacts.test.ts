// The EBLID lookup budget is one per user across every route that resolves a code: searching and adding by a
// four-digit identifier draw from it together, so the limit cannot be side-stepped through /contacts/add.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import type { Api } from './socket-helpers';

let srv: TestServer;
let api: Api;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
});
afterAll(() => srv.close());

const randomCodes = (n: number) =>
  Array.from({ length: n }, (_, i) => String((i * 379 + 17) % 10_000).padStart(4, '0'));

describe('EBLID lookups', () => {
  it('adding by four-digit codes is limited like searching (20 a minute by default)', async () => {
    const sweeper = await api.user('sweeper');
    const statuses: number[] = [];
    for (const code of randomCodes(25)) {
      statuses.push((await api.post('/api/contacts/add', { identifier: code }, sweeper.accessToken)).status);
    }
    expect(statuses.slice(0, 20).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    const refused = await api.post('/api/contacts/add', { identifier: ' 1234 ' }, sweeper.accessToken);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Слишком много поисков по EBLID\. Повторите через \d+ с\.$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Searching shares the same budget.
    expect((await api.get('/api/contacts/search?code=1234', sweeper.accessToken)).status).toBe(429);
  });

  it('search and add draw from one budget; adding by username is not a code lookup', async () => {
    const [mixer, friend] = await Promise.all([api.user('mixer'), api.user('friend')]);
    const codes = randomCodes(20);
    for (const code of codes.slice(0, 10))
      expect((await api.get(`/api/contacts/search?code=${code}`, mixer.accessToken)).status).toBe(200);
    for (const code of codes.slice(10))
      expect((await api.post('/api/contacts/add', { identifier: code }, mixer.accessToken)).status).not.toBe(429);
    expect((await api.get('/api/contacts/search?code=0000', mixer.accessToken)).status).toBe(429);
    expect((await api.post('/api/contacts/add', { identifier: friend.user.eblid }, mixer.accessToken)).status).toBe(
      429,
    );
    expect((await api.post('/api/contacts/add', { identifier: `@${friend.username}` }, mixer.accessToken)).status).toBe(
      200,
    );
    // Another user's budget is their own.
    expect((await api.get(`/api/contacts/search?code=${mixer.user.eblid}`, friend.accessToken)).status).toBe(200);
  });
});
