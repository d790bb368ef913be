// Security headers: nosniff on every response (page, API, errors), and the client page's Content-Security-Policy,
// whose connect-src names the media server at the host the browser used. The browser side (the built app and a
// call under exactly this policy, with no violation) is e2e/csp.spec.ts.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_INIT_SCRIPT } from '../../src/contract/theme';
import { client, startTestServer, type TestServer } from './harness';

let srv: TestServer;
let clientDir: string;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>t</title><div id="root"></div>');
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(path.join(clientDir, 'assets', 'index-AbCd1234.js'), 'console.log(1)');
  srv = await startTestServer({
    clientDir,
    // The TLS proxy test below speaks as the reverse proxy on this machine.
    trustProxy: ['loopback'],
    sfu: { port: 7999, hostCandidates: null, udpPortRange: null, publicUrl: null },
  });
});
afterAll(async () => {
  await srv.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

function get(p: string, headers: Record<string, string> = {}): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: srv.port, path: p, headers }, (res) => {
      res.resume();
      resolve(res);
    });
    req.on('error', reject);
  });
}

const directives = (csp: string | string[] | undefined) =>
  Object.fromEntries(
    String(csp)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe('security headers', () => {
  it('sets nosniff on the page, the API, API errors and unknown addresses', async () => {
    for (const p of ['/', '/contacts', '/api/health', '/api/status/me', '/api/nope']) {
      const res = await get(p);
      expect(res.headers['x-content-type-options'], p).toBe('nosniff');
      expect(res.headers['x-frame-options'], p).toBe('DENY');
      expect(res.headers['referrer-policy'], p).toBe('no-referrer');
    }
  });

  it('keeps no API answer in the browser: no-store on answers, errors and unknown routes; uploads private', async () => {
    const user = await client(srv.url).user('cachy');
    const auth = { authorization: `Bearer ${user.accessToken}` };
    for (const [p, status, headers] of [
      ['/api/conversations', 200, auth],
      ['/api/contacts', 200, auth],
      ['/api/health', 200, {}],
      ['/api/conversations', 401, {}],
      ['/api/nope', 404, auth],
    ] as const) {
      const res = await get(p, headers);
      expect(res.statusCode, p).toBe(status);
      expect(res.headers['cache-control'], `${p} ${status}`).toBe('no-store');
    }
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]), 'x.bin');
    const up = await fetch(`${srv.url}/api/upload`, { method: 'POST', body: form, headers: auth });
    expect(up.headers.get('cache-control')).toBe('no-store');
    const file = await get((await up.json()).url);
    expect(file.headers['cache-control']).toMatch(/^private\b/);
    // The build's content-hashed assets stay cacheable.
    expect((await get('/assets/index-AbCd1234.js')).headers['cache-control']).toMatch(/immutable/);
  });

  it("gives the build's assets nosniff and no document headers (they govern pages, not the scripts a page reads)", async () => {
    for (const p of ['/assets/index-AbCd1234.js', '/assets/missing-0000.js']) {
      const res = await get(p);
      expect(res.headers['x-content-type-options'], p).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], p).toBe('same-origin');
      expect(res.headers['content-security-policy'], p).toBeUndefined();
      expect(res.headers['x-frame-options'], p).toBeUndefined();
    }
    // The page itself and the service worker's script (whose own policy governs the worker) keep them all.
    for (const p of ['/', '/service-worker.js'])
      expect((await get(p)).headers['content-security-policy'], p).toBeDefined();
  });

  it('gives the page a CSP for its own scripts, blob: media and the media server on the host it was reached by', async () => {
    const res = await get('/', { host: 'chat.example.org:4000' });
    expect(res.statusCode).toBe(200);
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['default-src']).toEqual(["'self'"]);
    // The app's own scripts, the theme's inline pre-paint script by its hash alone, and WebAssembly compiled from
    // the app's own files (the calls' noise suppression); no 'unsafe-eval', no inline script otherwise.
    const themeHash = `'sha256-${createHash('sha256').update(THEME_INIT_SCRIPT).digest('base64')}'`;
    expect(csp['script-src']).toEqual(["'self'", themeHash, "'wasm-unsafe-eval'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['img-src']).toEqual(["'self'", 'blob:', 'data:']);
    expect(csp['media-src']).toEqual(["'self'", 'blob:']);
    expect(csp['worker-src']).toEqual(["'self'", 'blob:']);
    expect(csp['connect-src']).toEqual([
      "'self'",
      'ws://chat.example.org:4000',
      'ws://chat.example.org:7999',
      'http://chat.example.org:7999',
    ]);
    expect(csp['upgrade-insecure-requests']).toBeUndefined();
  });

  it('uses wss/https sources behind a TLS proxy', async () => {
    const res = await get('/', {
      host: '127.0.0.1',
      'x-forwarded-host': 'chat.example.org',
      'x-forwarded-proto': 'https',
    });
    expect(directives(res.headers['content-security-policy'])['connect-src']).toEqual([
      "'self'",
      'wss://chat.example.org',
      'wss://chat.example.org:7999',
      'https://chat.example.org:7999',
    ]);
  });

  it('answers each address with its own sources when requests for several addresses interleave', async () => {
    // The headers are computed once per address and replayed: a cached answer must never reach another host.
    for (let round = 0; round < 2; round++) {
      for (const host of ['a.example.org', 'b.example.org:8080', '127.0.0.1']) {
        const res = await get(round ? '/api/health' : '/', { host });
        const connect = directives(res.headers['content-security-policy'])['connect-src'];
        expect(connect, host).toEqual(
          host === '127.0.0.1'
            ? expect.arrayContaining([`ws://${host}`])
            : ["'self'", `ws://${host}`, `ws://${host.split(':')[0]}:7999`, `http://${host.split(':')[0]}:7999`],
        );
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    }
  });

  it('keeps the stricter sandbox policy on uploads', async () => {
    const user = await client(srv.url).user('up');
    const form = new FormData();
    form.append('file', new Blob(['<html><script>alert(1)</script>']), 'x.html');
    const up = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    const res = await get((await up.json()).url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
