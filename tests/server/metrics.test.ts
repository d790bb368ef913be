// GET /metrics: Prometheus figures after real requests, a real socket and a sent message; route labels are
// patterns; only loopback callers or METRICS_TOKEN holders read them. The request id of every answer.
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../server/app';
import { metricsAccess } from '../../server/observability/metrics-access';
import { startSfu } from '../../server/sfu/index';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, closeAll, connect, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let conversationId: string;

beforeAll(async () => {
  srv = await startTestServer({ metricsToken: 'scrape-token-0123456789' });
  api = client(srv.url);
  alice = await api.user('alice');
  bob = await api.user('bob');
  await befriend(api, alice, bob);
  conversationId = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body
    .conversation.id;
});
afterAll(async () => {
  closeAll();
  await srv.close();
});

const scrape = async (headers: Record<string, string> = {}) => {
  const res = await fetch(`${srv.url}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

/** The value of one sample line, e.g. `beseda_messages_sent_total`. */
const sample = (text: string, line: string) => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe('GET /metrics', () => {
  it('counts HTTP requests under their route pattern, sockets, sent messages and searches', async () => {
    await connect(srv.url, bob.accessToken);
    const sent = await api.post(
      '/api/conversations/send',
      { conversationId, type: 'TEXT', content: 'Привет, метрики' },
      alice.accessToken,
    );
    expect(sent.status).toBe(200);
    expect((await api.get(`/api/conversations/${conversationId}/messages`, alice.accessToken)).status).toBe(200);
    expect((await api.get('/api/search?q=метрики', alice.accessToken)).status).toBe(200);
    expect((await api.get('/api/no-such-route/12345')).status).toBe(404);

    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{route="/api/conversations/:id/messages",method="GET",status="200"}',
      ),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count{route="/api/conversations/send",method="POST",status="200"}'),
    ).toBe(1);
    // Never the raw URL: an unknown address is one label.
    expect(sample(text, 'http_request_duration_seconds_count{route="unmatched",method="GET",status="404"}')).toBe(1);
    expect(text).not.toContain(conversationId);
    expect(text).not.toContain('no-such-route');
    expect(sample(text, 'beseda_sockets_connected')).toBe(1);
    expect(sample(text, 'beseda_messages_sent_total')).toBe(1);
    expect(sample(text, 'beseda_search_duration_seconds_count')).toBe(1);
    expect(sample(text, 'beseda_push_sent_total')).toBe(0);
    expect(text).toContain('# TYPE beseda_push_failed_total counter');
    // Node's own figures, on this server's registry.
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('process_resident_memory_bytes');
    // No media server attached: the call figures are there, at zero.
    expect(sample(text, 'beseda_sfu_rooms')).toBe(0);
    expect(sample(text, 'beseda_sfu_participants')).toBe(0);
  });

  it('reads the attached media server', async () => {
    const sfu = await startSfu({
      port: 0,
      host: '127.0.0.1',
      apiKey: srv.server.ctx.secrets.livekitApiKey,
      apiSecret: srv.server.ctx.secrets.livekitApiSecret,
      hostCandidates: ['127.0.0.1'],
    });
    try {
      srv.server.app.mediaRooms.attach(sfu);
      const { text } = await scrape();
      expect(sample(text, 'beseda_sfu_rooms')).toBe(sfu.stats().rooms);
      expect(text).toContain('beseda_sfu_packets_forwarded ');
    } finally {
      srv.server.app.mediaRooms.attach(null);
      await sfu.close();
    }
  });

  it('takes METRICS_TOKEN as a bearer token and refuses a wrong one', async () => {
    expect((await scrape({ authorization: 'Bearer scrape-token-0123456789' })).status).toBe(200);
    const wrong = await scrape({ authorization: 'Bearer nope' });
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.text)).toEqual({ message: 'Неверный токен метрик' });
  });

  it('admits loopback callers and token holders only (the socket address, not X-Forwarded-For)', () => {
    expect(metricsAccess('127.0.0.1', undefined, null)).toBe('allowed');
    expect(metricsAccess('::1', undefined, null)).toBe('allowed');
    expect(metricsAccess('::ffff:127.0.0.1', undefined, null)).toBe('allowed');
    expect(metricsAccess('192.168.1.20', undefined, null)).toBe('no-token');
    expect(metricsAccess('192.168.1.20', 'Bearer t', null)).toBe('no-token');
    expect(metricsAccess('192.168.1.20', 'Bearer secret', 'secret')).toBe('allowed');
    expect(metricsAccess('192.168.1.20', 'Bearer secreT', 'secret')).toBe('wrong-token');
    expect(metricsAccess(undefined, undefined, 'secret')).toBe('no-token');
  });

  const lan = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

  it.skipIf(!lan)(
    'refuses a caller from another address over a real connection, even one claiming loopback',
    async () => {
      const server = await createServer({
        ...srv.config,
        databaseUrl: srv.config.databaseUrl,
        port: 0,
        host: '0.0.0.0',
      });
      try {
        await server.app.listen({ port: 0, host: lan });
        const addr = server.app.server.address();
        const port = typeof addr === 'object' && addr ? addr.port : 0;
        const res = await fetch(`http://${lan}:${port}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1' } });
        expect(res.status).toBe(403);
        expect((await res.json()).message).toBe(
          'Метрики доступны только с этого компьютера или с токеном METRICS_TOKEN',
        );
        const withToken = await fetch(`http://${lan}:${port}/metrics`, {
          headers: { authorization: 'Bearer scrape-token-0123456789' },
        });
        expect(withToken.status).toBe(200);
        expect(await withToken.text()).toContain('beseda_messages_sent_total');
      } finally {
        await server.close();
      }
    },
  );
});

describe('request ids', () => {
  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const given = await fetch(`${srv.url}/api/health`, { headers: { 'x-request-id': 'proxy-abc.123:4' } });
    expect(given.headers.get('x-request-id')).toBe('proxy-abc.123:4');
    const odd = await fetch(`${srv.url}/api/health`, { headers: { 'x-request-id': 'a b"c\\d' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const none = await fetch(`${srv.url}/api/nowhere`);
    const again = await fetch(`${srv.url}/api/nowhere`);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(none.headers.get('x-request-id')).not.toBe(again.headers.get('x-request-id'));
  });
});
