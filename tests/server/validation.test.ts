// Every issue-2 route refuses malformed JSON, extra fields, wrong types and missing fields with a 4xx
// and a message, and no client mistake ever yields a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';

let srv: TestServer;
let http: ReturnType<typeof client>;
let token: string;
beforeAll(async () => {
  srv = await startTestServer();
  http = client(srv.url);
  token = (await http.user('val')).accessToken;
});
afterAll(() => srv?.close());

const jsonRoutes: Array<[string, string, boolean, Record<string, unknown>]> = [
  ['POST', '/api/auth/register', false, { username: 'validname', displayName: 'Имя', password: 'password1' }],
  ['POST', '/api/auth/login', false, { username: 'validname', password: 'password1' }],
  ['POST', '/api/auth/refresh', false, { refreshToken: 'abc' }],
  ['POST', '/api/auth/logout', false, { refreshToken: 'abc' }],
  ['PATCH', '/api/status/me', true, { bio: 'ok' }],
  ['POST', '/api/contacts/add', true, { identifier: '0000' }],
  ['POST', '/api/contacts/respond', true, { contactId: 'x', action: 'accept' }],
  ['POST', '/api/contacts/remove', true, { contactId: 'x' }],
];

describe.each(jsonRoutes)('%s %s', (method, path, auth, valid) => {
  const t = () => (auth ? token : undefined);

  it('refuses malformed JSON with 400', async () => {
    const res = await http.call(method, path, { raw: '{"oops": ', token: t() });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Некорректный JSON');
  });

  it('refuses an extra field with 400 naming it', async () => {
    const res = await http.call(method, path, { body: { ...valid, isAdmin: true }, token: t() });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('isAdmin');
  });

  it('refuses wrong types with 400', async () => {
    const wrong = Object.fromEntries(Object.keys(valid).map((k) => [k, { nested: [1] }]));
    const res = await http.call(method, path, { body: wrong, token: t() });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
  });

  it('refuses a non-object body with 400', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const res = await http.call(method, path, { raw, token: t() });
      expect(res.status, raw).toBeGreaterThanOrEqual(400);
      expect(res.status, raw).toBeLessThan(500);
    }
  });

  it('refuses an unsupported content type with 415', async () => {
    const res = await http.call(method, path, { raw: 'a=b', token: t(), headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body.message).toBeTruthy();
  });

  it('refuses an over-long value with 400', async () => {
    const long = Object.fromEntries(Object.keys(valid).map((k) => [k, 'я'.repeat(5000)]));
    const res = await http.call(method, path, { body: long, token: t() });
    expect(res.status).toBe(400);
  });
});

describe('transport-level mistakes', () => {
  it('refuses a body over 1 MiB with 413', async () => {
    const res = await http.call('POST', '/api/auth/login', {
      raw: JSON.stringify({ username: 'x'.repeat(1_100_000), password: 'y' }),
    });
    expect(res.status).toBe(413);
  });

  it('answers unknown routes with 404 JSON', async () => {
    const res = await http.get('/api/nope', token);
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/Нет такого адреса/);
  });

  it('an empty JSON body is a 400', async () => {
    const res = await http.call('POST', '/api/contacts/add', { raw: '', token });
    expect(res.status).toBe(400);
  });

  it('unknown query parameters are refused', async () => {
    const res = await http.get('/api/contacts?filter=all&admin=1', token);
    expect(res.status).toBe(400);
  });
});
