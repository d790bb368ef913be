// How the built client is delivered (server/http/client-static.ts, client-cache.ts): the build's Brotli or gzip copy
// by the request's Accept-Encoding, with Vary; content-hashed assets cached for good, index.html revalidated;
// unknown assets and source maps are 404s, never index.html. The client directory here is written by the test in
// the build's layout (file, file.br, file.gz); e2e/delivery.spec.ts checks the real build in a browser.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { IMMUTABLE } from '../../server/http/client-cache';
import { client, startTestServer, type TestServer } from './harness';

const INDEX =
  '<!doctype html><html lang="ru"><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `export const greeting = ${JSON.stringify('Привет, '.repeat(400))};\n`;
const ASSET = '/assets/index-Ab12Cd34.js';

function writeBuild(dir: string) {
  const write = (file: string, text: string, copies = true) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
    if (!copies) return;
    fs.writeFileSync(path.join(dir, `${file}.br`), zlib.brotliCompressSync(text));
    fs.writeFileSync(path.join(dir, `${file}.gz`), zlib.gzipSync(text));
  };
  write('index.html', INDEX);
  write(ASSET.slice(1), SCRIPT);
  write(`${ASSET.slice(1)}.map`, JSON.stringify({ version: 3, sources: ['src/main.tsx'], mappings: 'AAAA' }));
  write('brand.svg', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>');
  write('assets/plain-Zz99Yy88.js', 'export {};\n', false); // tiny: the build skips copies not smaller than the file
  write('service-worker.js', `self.addEventListener('push', () => {});\n${'// precache list\n'.repeat(40)}`, false);
  write('manifest.webmanifest', JSON.stringify({ name: 'Беседа', display: 'standalone', icons: [] }));
}

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw HTTP GET (no automatic decompression): the bytes as they travel. */
function get(srv: TestServer, p: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: srv.port, path: p, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const decoded = (r: Raw) => {
  const enc = r.headers['content-encoding'];
  if (enc === 'br') return zlib.brotliDecompressSync(r.body).toString();
  if (enc === 'gzip') return zlib.gunzipSync(r.body).toString();
  return r.body.toString();
};
const varies = (r: Raw) =>
  String(r.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);

let clientDir: string;
let srv: TestServer;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-delivery-'));
  writeBuild(clientDir);
  srv = await startTestServer({ clientDir });
});
afterAll(async () => {
  await srv?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('compression: the build’s copies by Accept-Encoding', () => {
  it('sends Brotli when the browser accepts both Brotli and gzip', async () => {
    for (const accept of ['gzip, deflate, br', 'br, gzip', 'gzip;q=1.0, br;q=1.0, *;q=0.1']) {
      const r = await get(srv, ASSET, { 'accept-encoding': accept });
      expect(r.status, accept).toBe(200);
      expect(r.headers['content-encoding'], accept).toBe('br');
      expect(r.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
      expect(varies(r)).toContain('accept-encoding');
      expect(r.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 4);
      expect(decoded(r)).toBe(SCRIPT);
    }
  });

  it('sends gzip to a gzip-only client', async () => {
    const r = await get(srv, ASSET, { 'accept-encoding': 'gzip' });
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(varies(r)).toContain('accept-encoding');
    expect(r.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(decoded(r)).toBe(SCRIPT);
  });

  it('sends the file itself to a client that accepts neither (and says the answer varies)', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'deflate' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ]) {
      const r = await get(srv, ASSET, headers);
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(varies(r)).toContain('accept-encoding');
      expect(r.body.toString()).toBe(SCRIPT);
    }
  });

  it('compresses index.html at /, at /index.html and at a deep link alike', async () => {
    for (const p of ['/', '/index.html', '/contacts', '/settings?tab=1']) {
      const r = await get(srv, p, { 'accept-encoding': 'gzip, br' });
      expect(r.status, p).toBe(200);
      expect(r.headers['content-type'], p).toMatch(/^text\/html/);
      expect(r.headers['content-encoding'], p).toBe('br');
      expect(decoded(r), p).toBe(INDEX);
    }
  });

  it('serves a file without copies as it is; the copies have no address of their own', async () => {
    const plain = await get(srv, '/assets/plain-Zz99Yy88.js', { 'accept-encoding': 'gzip, br' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe('export {};\n');
    for (const p of [`${ASSET}.br`, `${ASSET}.gz`, '/index.html.br']) expect((await get(srv, p)).status, p).toBe(404);
  });
});

describe('caching', () => {
  it('content-hashed assets are cached for a year without revalidation, in every encoding', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const r = await get(srv, ASSET, { 'accept-encoding': accept });
      expect(r.headers['cache-control'], accept).toBe(IMMUTABLE);
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('index.html is revalidated on every use (no-cache), wherever it is served; a revalidation is a 304', async () => {
    for (const p of ['/', '/index.html', '/contacts']) {
      for (const accept of ['br', 'gzip', 'identity']) {
        const r = await get(srv, p, { 'accept-encoding': accept });
        expect(r.headers['cache-control'], `${p} ${accept}`).toBe('no-cache');
      }
    }
    const first = await get(srv, '/', { 'accept-encoding': 'br' });
    expect(first.headers.etag).toBeTruthy();
    const again = await get(srv, '/', { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('unhashed files from public/ are revalidated too', async () => {
    const r = await get(srv, '/brand.svg', { 'accept-encoding': 'gzip' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['cache-control']).toBe('no-cache');
  });

  it('the service worker and the web app manifest are revalidated on every use (a new build takes over on the next load)', async () => {
    const worker = await get(srv, '/service-worker.js', { 'accept-encoding': 'gzip, br' });
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toMatch(/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await get(srv, '/manifest.webmanifest', { 'accept-encoding': 'br' });
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(JSON.parse(decoded(manifest)).name).toBe('Беседа');
  });

  it('API answers are not marked cacheable by the client rules', async () => {
    const r = await get(srv, '/api/health');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).not.toBe(IMMUTABLE);
  });

  it('uploads keep their own headers', async () => {
    const api = client(srv.url);
    const u = await api.user('up');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('просто текст'))], { type: 'text/plain' }), 'note.txt');
    const res = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.accessToken}` },
      body: form,
    });
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    const r = await get(srv, url, { authorization: `Bearer ${u.accessToken}`, 'accept-encoding': 'gzip, br' });
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(r.headers['content-encoding']).toBeUndefined();
  });
});

describe('not found', () => {
  it('an unknown asset is a 404 with a message, not index.html with a 200', async () => {
    for (const p of [
      '/assets/index-Old00000.js',
      '/assets/index-Old00000.css',
      '/assets/chunk',
      '/assets/',
      '/assets',
      '/nope.js',
    ]) {
      const r = await get(srv, p, { 'accept-encoding': 'gzip, br', accept: 'text/html,*/*' });
      expect(r.status, p).toBe(404);
      expect(r.headers['content-type'], p).toMatch(/^application\/json/);
      expect(decoded(r), p).not.toContain('<div id="root">');
      expect(JSON.parse(decoded(r)).message, p).toMatch(/Нет такого адреса/);
    }
  });

  it('source maps are not served unless configured', async () => {
    const r = await get(srv, `${ASSET}.map`, { 'accept-encoding': 'gzip, br' });
    expect(r.status).toBe(404);
    expect(decoded(r)).not.toContain('mappings');
  });
});

describe('source maps on request (SERVE_SOURCE_MAPS)', () => {
  it('is off unless SERVE_SOURCE_MAPS says yes', () => {
    expect(loadConfig({}).serveSourceMaps).toBe(false);
    expect(loadConfig({ SERVE_SOURCE_MAPS: '0' }).serveSourceMaps).toBe(false);
    expect(loadConfig({ SERVE_SOURCE_MAPS: '1' }).serveSourceMaps).toBe(true);
    expect(loadConfig({ SERVE_SOURCE_MAPS: 'true' }).serveSourceMaps).toBe(true);
  });

  let withMaps: TestServer;
  beforeAll(async () => {
    withMaps = await startTestServer({ clientDir, serveSourceMaps: true });
  });
  afterAll(async () => withMaps?.close());

  it('serves them, compressed and cached like the asset they describe', async () => {
    const r = await get(withMaps, `${ASSET}.map`, { 'accept-encoding': 'gzip, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe(IMMUTABLE);
    expect(JSON.parse(decoded(r)).mappings).toBe('AAAA');
  });
});
