// HTTPS held by the server itself (server/tls, serve.ts), started as `npm start` starts it, against a real ACME CA
// (Debian's pebble; tests/server/pebble.ts): a fresh start obtains a certificate over HTTP-01, a restart reuses it,
// one near expiry is renewed on the renewal timer, a CA that fails leaves the server on its last certificate, and a
// start that cannot get one refuses with a Russian reason. Then the operator's own files (TLS_CERT/TLS_KEY).
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import acme from 'acme-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../server/config';
import { type Served, serve } from '../../server/serve';
import type { AcmeRetrySettings } from '../../server/tls/acme';
import { CHECK_EVERY_MS, RENEW_BEFORE_MS, TlsStartError } from '../../server/tls/index';
import { manualClock } from './manual-clock';
import { freePort, havePebble, type Pebble, selfSignedCertificate, startPebble } from './pebble';

const DOMAIN = 'chat.beseda.test';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The served certificate's fingerprint and expiry. */
  cert: { fingerprint256: string; valid_to: string; issuer: { CN?: string }; subject: { CN?: string } };
}

function get(port: number, pathname: string, ca: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path: pathname, servername: DOMAIN, ca, agent: false },
      (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate() as unknown as Answer['cert'];
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, cert }));
      },
    );
    // Named, so a failure says which request of the suite it was (the server's, after which start, or pebble's).
    req.on('error', (err) =>
      reject(new Error(`GET https://127.0.0.1:${port}${pathname}: ${err.message}`, { cause: err })),
    );
    req.end();
  });
}

function plainGet(port: number, pathname: string, host: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, headers: { host }, agent: false }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      })
      .on('error', reject);
  });
}

function logSink() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'beseda-tls-'));

const retries = acme.axios.defaults as unknown as { acmeSettings: AcmeRetrySettings };

// `npm test` installs pebble first (scripts/ensure-test-tools.mjs): without it this suite fails, never skips.
if (!havePebble()) throw new Error('pebble is not installed (apt-get install pebble): the HTTPS suite needs it');

describe('HTTPS by ACME (pebble)', () => {
  let pebble: Pebble;
  let root: string;
  let httpPort: number;
  const previousAgent = acme.axios.defaults.httpsAgent;
  const previousRetries = retries.acmeSettings;

  beforeAll(async () => {
    httpPort = await freePort();
    pebble = await startPebble(httpPort);
    // The CA's own listener is signed by a throwaway certificate; in production that is a public CA's.
    acme.axios.defaults.httpsAgent = new https.Agent({ ca: pebble.listenerCa });
    // A CA that is down is tried once here: its retries' pacing (seconds apart) is acme-client's, not ours.
    retries.acmeSettings = { ...previousRetries, retryMaxAttempts: 0 };
    root = await pebble.issuerRoot();
  }, 30_000);
  afterAll(async () => {
    acme.axios.defaults.httpsAgent = previousAgent;
    retries.acmeSettings = previousRetries;
    await pebble?.stop();
  });

  const configFor = async (dataDir: string, directoryUrl = pebble.directoryUrl) =>
    loadConfig({
      PUBLIC_URL: `https://${DOMAIN}`,
      PORT: String(await freePort()),
      HTTP_PORT: String(httpPort),
      HOST: '127.0.0.1',
      ACME_DIRECTORY: directoryUrl,
      DATA_DIR: dataDir,
      BACKUP_SCHEDULE: 'off',
      CLIENT_DIR: '',
      LOG_LEVEL: 'info',
    });

  it('a fresh start obtains a certificate and serves the app, its socket and the media server on it; a restart reuses it; one near expiry is renewed; a failing CA leaves the last one', async () => {
    const dataDir = tmp();
    const clock = manualClock();
    const log = logSink();
    let config = await configFor(dataDir);
    const started = Date.now();
    let served: Served = await serve(config, { clock, logStream: log.stream, sfuPort: 0 });
    const firstAnswerMs = Date.now() - started;
    try {
      const first = await get(served.port, '/api/instance', root);
      expect(first.status).toBe(200);
      expect(JSON.parse(first.body)).toMatchObject({ secureUrl: `https://${DOMAIN}` });
      expect(first.cert.subject.CN).toBe(DOMAIN);
      expect(first.cert.issuer.CN).toMatch(/^Pebble Intermediate CA/);
      expect(first.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      console.info(`fresh start to the first HTTPS answer: ${firstAnswerMs} ms`);
      // Stored for the next start, readable by the server's user alone.
      expect(fs.statSync(path.join(dataDir, 'tls', `${DOMAIN}.key`)).mode & 0o077).toBe(0);

      // Plain HTTP redirects to the same path over https.
      expect(await plainGet(httpPort, '/chats/1?x=1', `${DOMAIN}`)).toEqual({
        status: 301,
        location: `https://${DOMAIN}/chats/1?x=1`,
      });
      // The media server's signalling on the same port and certificate: its /validate, then its websocket, each
      // refusing a missing token as the media server itself does (401), not as a page the app does not know.
      const validate = await get(served.port, '/sfu/rtc/v1/validate', root);
      expect(validate.status).toBe(401);
      const upgrade = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`wss://127.0.0.1:${served.port}/sfu/rtc/v1?access_token=nope`, {
          servername: DOMAIN,
          ca: root,
        } as WebSocket.ClientOptions);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => {});
      });
      expect(upgrade).toBe(401);
      // The app's own websocket on the same port: engine.io's open packet arrives over wss.
      const opening = await new Promise<string>((resolve, reject) => {
        const ws = new WebSocket(`wss://127.0.0.1:${served.port}/socket.io/?EIO=4&transport=websocket`, {
          servername: DOMAIN,
          ca: root,
        } as WebSocket.ClientOptions);
        ws.on('message', (data) => {
          resolve(String(data));
          ws.close();
        });
        ws.on('error', (err) => reject(new Error(`wss /socket.io/ on ${served.port}: ${err.message}`, { cause: err })));
      });
      expect(opening).toMatch(/^0\{"sid":/);

      // A restart reuses the stored certificate: no new order.
      await served.close();
      config = await configFor(dataDir);
      served = await serve(config, { clock, logStream: log.stream, sfuPort: 0 });
      const again = await get(served.port, '/api/instance', root);
      expect(again.cert.fingerprint256).toBe(first.cert.fingerprint256);

      // Near expiry, the renewal timer orders a new one and the running server serves it, no restart.
      const notAfter = new Date(first.cert.valid_to).getTime();
      clock.advance(notAfter - RENEW_BEFORE_MS + 3600_000 - clock.now());
      await expect
        .poll(
          async () => {
            clock.advance(CHECK_EVERY_MS);
            return (await get(served.port, '/api/instance', root)).cert.fingerprint256;
          },
          { timeout: 30_000, interval: 500 },
        )
        .not.toBe(first.cert.fingerprint256)
        .catch((e) => {
          console.log(log.lines.filter((l) => l.includes('tls')).join(''));
          throw e;
        });
      const renewed = await get(served.port, '/api/instance', root);
      expect(log.lines.join('')).toContain(`Получен сертификат для ${DOMAIN}`);

      // A CA that is gone when the next renewal is due: the server keeps serving its last certificate and says why.
      await pebble.stop();
      const due = new Date(renewed.cert.valid_to).getTime() - RENEW_BEFORE_MS + 3600_000;
      clock.advance(due - clock.now());
      await served.tls?.check();
      expect(log.lines.join('')).toMatch(
        new RegExp(`Сертификат для ${DOMAIN.replaceAll('.', '\\.')} не продлён: .*работаю на прежнем`),
      );
      const after = await get(served.port, '/api/instance', root);
      expect(after.status).toBe(200);
      expect(after.cert.fingerprint256).toBe(renewed.cert.fingerprint256);
    } finally {
      await served.close();
      pebble = await startPebble(httpPort);
      acme.axios.defaults.httpsAgent = new https.Agent({ ca: pebble.listenerCa });
      root = await pebble.issuerRoot();
    }
  }, 90_000);

  it('a first start whose CA cannot be reached, or whose port 80 is taken, refuses with a Russian reason and opens nothing', async () => {
    const unreachable = await configFor(tmp(), `https://127.0.0.1:${await freePort()}/dir`);
    const refusal = await serve(unreachable, { logStream: logSink().stream, sfuPort: 0 }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(TlsStartError);
    expect((refusal as Error).message).toMatch(/^Не получить сертификат для chat\.beseda\.test/);
    // Nothing was left listening: the HTTPS port is free again.
    await new Promise<void>((resolve, reject) => {
      const probe = net.createServer().once('error', reject);
      probe.listen(unreachable.port, '127.0.0.1', () => probe.close(() => resolve()));
    });

    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(httpPort, '127.0.0.1', resolve));
    try {
      const err = await serve(await configFor(tmp()), { logStream: logSink().stream, sfuPort: 0 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TlsStartError);
      expect((err as Error).message).toContain(`порт ${httpPort} занят другой программой`);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }

    // With a certificate already stored, a taken port 80 is said, and the server starts on what it has.
    const dataDir = tmp();
    const first = await serve(await configFor(dataDir), { logStream: logSink().stream, sfuPort: 0 });
    await first.close();
    await new Promise<void>((resolve) => taken.listen(httpPort, '127.0.0.1', resolve));
    const log = logSink();
    const second = await serve(await configFor(dataDir), { logStream: log.stream, sfuPort: 0 });
    try {
      expect((await get(second.port, '/api/health', root)).status).toBe(200);
      expect(log.lines.join('')).toContain(
        `HTTP_PORT: порт ${httpPort} занят другой программой; сертификат не продлится`,
      );
    } finally {
      await second.close();
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  }, 60_000);
});

/** A self-signed certificate and key for DOMAIN, as PEM files in `dir` (named `name`.crt/.key). */
function selfSigned(dir: string, name: string): { certFile: string; keyFile: string } {
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  selfSignedCertificate({ subject: DOMAIN, altNames: `DNS:${DOMAIN}`, days: 30, keyFile, certFile });
  return { certFile, keyFile };
}

describe('HTTPS from the operator’s files (TLS_CERT/TLS_KEY)', () => {
  it('serves them, reloads them when they change, keeps the last good pair when the new one is broken, and refuses to start on a key of another certificate', async () => {
    const dir = tmp();
    const a = selfSigned(dir, 'a');
    const b = selfSigned(dir, 'b');
    const live = { certFile: path.join(dir, 'live.crt'), keyFile: path.join(dir, 'live.key') };
    fs.copyFileSync(a.certFile, live.certFile);
    fs.copyFileSync(a.keyFile, live.keyFile);
    const env = {
      TLS_CERT: live.certFile,
      TLS_KEY: live.keyFile,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      CLIENT_DIR: '',
      BACKUP_SCHEDULE: 'off',
    };
    const log = logSink();
    const served = await serve(loadConfig(env), { logStream: log.stream, sfuPort: 0, tlsWatchIntervalMs: 50 });
    try {
      const caA = fs.readFileSync(a.certFile, 'utf8');
      const caB = fs.readFileSync(b.certFile, 'utf8');
      const first = await get(served.port, '/api/health', caA);
      expect(first.status).toBe(200);

      // A half-written pair (b's certificate with a's key) is refused and the old pair stays.
      fs.copyFileSync(b.certFile, live.certFile);
      await expect.poll(() => log.lines.join(''), { timeout: 10_000 }).toContain('ключ не подходит к сертификату');
      expect((await get(served.port, '/api/health', caA)).cert.fingerprint256).toBe(first.cert.fingerprint256);

      // The whole new pair is served without a restart.
      fs.copyFileSync(b.keyFile, live.keyFile);
      await expect
        .poll(async () => (await get(served.port, '/api/health', caB).catch(() => null))?.status ?? 0, {
          timeout: 10_000,
        })
        .toBe(200);
    } finally {
      await served.close();
    }

    // A key that belongs to another certificate stops the start, in Russian, naming the files.
    const wrong = await serve(loadConfig({ ...env, TLS_CERT: a.certFile, TLS_KEY: b.keyFile }), {
      logStream: logSink().stream,
      sfuPort: 0,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(wrong).toBeInstanceOf(TlsStartError);
    expect((wrong as Error).message).toContain('ключ не подходит к сертификату');
  }, 60_000);
});
