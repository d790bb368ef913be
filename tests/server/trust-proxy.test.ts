// TRUST_PROXY (server/net/client-address.ts): X-Forwarded-For/-Host/-Proto count only from a proxy the operator
// named. Unset, the client is the connection's own address: forged headers neither spread one guesser over many
// sign-in counters nor change the host the app thinks it is served at. The whole 127/8 is loopback on Linux, so a
// client socket bound to 127.0.0.2 is a second real address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { addressedAs, clientAddress, proxyTrust, trustNobody } from '../../server/net/client-address';
import { postFrom } from './from-address';
import { client, startTestServer, type TestServer } from './harness';
import { closeAll, connect } from './socket-helpers';

const LOCKED = /^Слишком много неудачных попыток\. Повторите через \d+ мин\.$/;

describe('reading the client address', () => {
  const headers = {
    'x-forwarded-for': '203.0.113.9, 10.0.0.5',
    'x-forwarded-host': 'chat.example.org',
    'x-forwarded-proto': 'https',
    host: '127.0.0.1:4000',
  };

  it('without TRUST_PROXY: the connection, its Host and its TLS, whatever the headers say', () => {
    expect(clientAddress({ remoteAddress: '127.0.0.1', headers }, trustNobody)).toBe('127.0.0.1');
    expect(addressedAs({ remoteAddress: '127.0.0.1', headers }, trustNobody)).toEqual({
      host: '127.0.0.1:4000',
      hostname: '127.0.0.1',
      protocol: 'http',
    });
  });

  it('from a trusted proxy: the first address from the right that is no trusted proxy', () => {
    expect(clientAddress({ remoteAddress: '127.0.0.1', headers }, proxyTrust(['loopback']))).toBe('10.0.0.5');
    expect(clientAddress({ remoteAddress: '127.0.0.1', headers }, proxyTrust(['loopback', '10.0.0.0/8']))).toBe(
      '203.0.113.9',
    );
    expect(addressedAs({ remoteAddress: '::1', headers }, proxyTrust(['loopback'])).host).toBe('chat.example.org');
    expect(clientAddress({ remoteAddress: '2001:db8::7', headers }, proxyTrust(['2001:db8::/32']))).toBe('10.0.0.5');
    // A peer outside the list is the client, its headers ignored.
    expect(clientAddress({ remoteAddress: '192.0.2.1', headers }, proxyTrust(['loopback']))).toBe('192.0.2.1');
    expect(addressedAs({ remoteAddress: '192.0.2.1', headers }, proxyTrust(['loopback'])).protocol).toBe('http');
  });

  it('TRUST_PROXY: addresses, subnets and range names; anything else stops the start with a Russian message', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8,fd00::/8, Loopback ' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['true', '*', '1', '10.0.0.0/33', 'proxy.example.org']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(`Неверное значение TRUST_PROXY: «${bad}»`);
    }
  });
});

describe('without TRUST_PROXY', () => {
  let srv: TestServer;
  let bob: Awaited<ReturnType<ReturnType<typeof client>['user']>>;
  beforeAll(async () => {
    srv = await startTestServer({
      loginMaxFailures: 5,
      loginMaxFailuresPerAddress: 100,
      loginMaxFailuresGlobal: 10_000,
    });
    bob = await client(srv.url).user('bob');
  });
  afterAll(async () => {
    closeAll();
    await srv?.close();
  });

  it('12 wrong passwords, each with another X-Forwarded-For: locked after the limit', async () => {
    const u = await client(srv.url).user('xff');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await postFrom(
        srv.url,
        '/api/auth/login',
        { username: u.username, password: 'wrong-pw' },
        {
          headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        },
      );
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.message).toMatch(LOCKED);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    // Another real address is another client: the owner signs in from there.
    const elsewhere = await postFrom(
      srv.url,
      '/api/auth/login',
      { username: u.username, password: u.password },
      {
        localAddress: '127.0.0.2',
      },
    );
    expect(elsewhere.status).toBe(200);
  });

  it('X-Forwarded-Host/-Proto change neither the security policy nor the websocket origin check', async () => {
    const res = await fetch(`${srv.url}/api/health`, {
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(res.headers.get('content-security-policy')).not.toContain('evil.example');
    expect(res.headers.get('content-security-policy')).toContain(`ws://127.0.0.1:${srv.port}`);
    await expect(
      connect(srv.url, bob.accessToken, {
        headers: { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' },
      }),
    ).rejects.toThrow();
  });
});

describe('TRUST_PROXY=127.0.0.1 (the proxy) ', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({
      loginMaxFailures: 5,
      loginMaxFailuresPerAddress: 100,
      loginMaxFailuresGlobal: 10_000,
      trustProxy: ['127.0.0.1'],
    });
  });
  afterAll(async () => srv?.close());

  it('from the proxy, another X-Forwarded-For is another client; from elsewhere the header is ignored', async () => {
    const u = await client(srv.url).user('prx');
    const wrong = { username: u.username, password: 'wrong-pw' };
    const viaProxy = [];
    for (let i = 0; i < 12; i++) {
      viaProxy.push(
        (await postFrom(srv.url, '/api/auth/login', wrong, { headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } }))
          .status,
      );
    }
    expect(viaProxy).toEqual(Array(12).fill(401));
    const direct = [];
    for (let i = 0; i < 12; i++) {
      direct.push(
        (
          await postFrom(srv.url, '/api/auth/login', wrong, {
            localAddress: '127.0.0.3',
            headers: { 'x-forwarded-for': `192.0.2.${i + 1}` },
          })
        ).status,
      );
    }
    expect(direct).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });
});
