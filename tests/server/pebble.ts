// Debian's `pebble` (Let's Encrypt's ACME test server) on loopback, with `pebble-challtestsrv` as its DNS: every
// name resolves to 127.0.0.1, so the CA's HTTP-01 check really fetches http://<name>:<httpPort>/.well-known/… from
// the server under test. Pebble's own HTTPS listener gets a throwaway certificate made with openssl; the roots it
// issues from are new on every start and read from its management port.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Pebble {
  directoryUrl: string;
  /** What verifies pebble's own listener (for the ACME client). */
  listenerCa: string;
  /** The root pebble signs certificates under (for the test's HTTPS client). */
  issuerRoot(): Promise<string>;
  stop(): Promise<void>;
}

export const havePebble = () => fs.existsSync('/usr/bin/pebble') && fs.existsSync('/usr/bin/pebble-challtestsrv');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function getText(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

async function waitFor(child: ChildProcess, output: () => string, line: RegExp, what: string) {
  const deadline = Date.now() + 15_000;
  while (!line.test(output())) {
    if (child.exitCode !== null) throw new Error(`${what} exited: ${output()}`);
    if (Date.now() > deadline) throw new Error(`${what} did not start: ${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Calls `ask` every 50 ms until it resolves; fails after 15 s, or at once when `child` has exited. */
async function until(ask: () => Promise<unknown>, what: string, where: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const failed = await ask().then(
      () => null,
      (err: Error) => err,
    );
    if (!failed) return;
    if (child.exitCode !== null) throw new Error(`${what} exited`);
    if (Date.now() > deadline) throw new Error(`${what} does not answer at ${where}: ${failed.message}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A self-signed P-256 certificate and its key, written as PEM files by openssl. */
export function selfSignedCertificate(o: {
  subject: string;
  altNames: string;
  days: number;
  keyFile: string;
  certFile: string;
}): void {
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', String(o.days)]
      .concat(['-subj', `/CN=${o.subject}`, '-addext', `subjectAltName=${o.altNames}`])
      .concat(['-keyout', o.keyFile, '-out', o.certFile]),
    { stdio: 'ignore' },
  );
}

/** Starts pebble whose HTTP-01 checks go to `httpPort` on 127.0.0.1. */
export async function startPebble(httpPort: number): Promise<Pebble> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pebble-'));
  selfSignedCertificate({
    subject: 'localhost',
    altNames: 'DNS:localhost,IP:127.0.0.1',
    days: 2,
    keyFile: path.join(dir, 'key.pem'),
    certFile: path.join(dir, 'cert.pem'),
  });
  const [acmePort, managementPort, dnsPort, tlsPort, ctsManagement] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: path.join(dir, 'cert.pem'),
        privateKey: path.join(dir, 'key.pem'),
        httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  let dnsOut = '';
  const dns = spawn(
    'pebble-challtestsrv',
    [
      '-dns01',
      `127.0.0.1:${dnsPort}`,
      '-http01',
      '',
      '-https01',
      '',
      '-tlsalpn01',
      '',
      '-management',
      `127.0.0.1:${ctsManagement}`,
      '-defaultIPv6',
      '',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  dns.stdout?.on('data', (c) => {
    dnsOut += c;
  });
  dns.stderr?.on('data', (c) => {
    dnsOut += c;
  });
  await waitFor(dns, () => dnsOut, /Starting management server/, 'pebble-challtestsrv');
  // Its servers start in goroutines after that line: the CA's check resolves names here, so ask until it answers.
  const resolver = new Resolver({ timeout: 500, tries: 1 });
  resolver.setServers([`127.0.0.1:${dnsPort}`]);
  await until(() => resolver.resolve4('ready.beseda.test'), 'pebble-challtestsrv', `DNS at 127.0.0.1:${dnsPort}`, dns);
  let out = '';
  // NOSLEEP: no random pause before each check; NONCEREJECT=0: no random bad-nonce refusals to retry.
  const pebble = spawn('pebble', ['-config', path.join(dir, 'config.json'), '-dnsserver', `127.0.0.1:${dnsPort}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
  });
  pebble.stdout?.on('data', (c) => {
    out += c;
  });
  pebble.stderr?.on('data', (c) => {
    out += c;
  });
  // A suite that dies (a timeout, a kill) must not leave them running.
  const orphaned = () => {
    pebble.kill('SIGKILL');
    dns.kill('SIGKILL');
  };
  process.once('exit', orphaned);
  await waitFor(pebble, () => out, /Listening on|ACME directory available/, 'pebble');
  const listenerCa = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  // Pebble, too, prints «Listening on» before its listeners are bound (the management one in a goroutine of its own):
  // a request in that moment was refused, and acme-client reports a request without a response as «Cannot read
  // properties of undefined (reading 'config')». Both answer before this returns.
  for (const url of [`https://127.0.0.1:${acmePort}/dir`, `https://127.0.0.1:${managementPort}/roots/0`])
    await until(() => getText(url, listenerCa), 'pebble', url, pebble);
  const stopChild = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return {
    directoryUrl: `https://127.0.0.1:${acmePort}/dir`,
    listenerCa,
    issuerRoot: () => getText(`https://127.0.0.1:${managementPort}/roots/0`, listenerCa),
    stop: async () => {
      process.off('exit', orphaned);
      await Promise.all([stopChild(pebble), stopChild(dns)]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
