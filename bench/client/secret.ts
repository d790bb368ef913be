// (e) secret — client CPU time of secret chats' MLS in real Chromium, unthrottled and under the phone profile's CPU
// (MOBILE.cpuSlowdown): the steps of bench/secret/measure.ts, bundled with esbuild and run on the page's thread,
// where DevTools' CPU throttling applies (the app runs the same engine in its crypto worker). Baseline in the same
// page: one WebCrypto AES-128-GCM encryption of 1 KB.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { build } from 'esbuild';
import type { SecretFigures } from '../secret/measure';
import { MOBILE } from './delivery';
import type { Check } from './run';

const N = Number(process.env.N ?? 20);
const ENCRYPT_TARGET_MS = 5;
const MEMBERSHIP_TARGET_MS = 500;
const LEAF_CHECK_TARGET_MS = 1;

interface PageBench {
  measureSecret(n: number): Promise<SecretFigures>;
  measureAesGcm(n: number): Promise<number>;
}

async function bundle(): Promise<string> {
  const out = await build({
    entryPoints: [fileURLToPath(new URL('../secret/browser-entry.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

/** A page on http://127.0.0.1 (a secure context, so WebCrypto is there) that loads the bundle. */
async function serve(js: string) {
  const server = http.createServer((req, res) => {
    if (req.url === '/bench.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    } else {
      // Cross-origin isolated: performance.now() then ticks in 5 µs, not 100 µs.
      res
        .writeHead(200, {
          'content-type': 'text/html',
          'cross-origin-opener-policy': 'same-origin',
          'cross-origin-embedder-policy': 'require-corp',
        })
        .end('<!doctype html><title>secret</title><script type="module" src="/bench.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

export async function secretPart(browser: Browser, checks: Check[], results: Record<string, unknown>) {
  const js = await bundle();
  const site = await serve(js);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(site.url);
    await page.waitForFunction(() => '__secretBench' in globalThis);
    if (!(await page.evaluate(() => globalThis.crossOriginIsolated))) throw new Error('bench page not isolated');
    const cdp = await context.newCDPSession(page);
    // A fixed loop of plain JavaScript: its time under a rate, against rate 1, shows the throttling in effect.
    const spin = () =>
      page.evaluate(() => {
        const start = performance.now();
        let x = 0;
        for (let i = 0; i < 3e6; i++) x = (x + i * 7) % 1009;
        return performance.now() - start + x * 0;
      });
    let spinAtRate1 = 0;
    const run = async (rate: number) => {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      // Chromium applies a new rate a little later: the loop runs until it shows, so no step is timed before.
      const deadline = Date.now() + 5000;
      let spun = await spin();
      if (rate === 1) spinAtRate1 = spun;
      else while (spun < spinAtRate1 * rate * 0.6 && Date.now() < deadline) spun = await spin();
      if (rate !== 1)
        console.log(`    throttling in effect: the loop took ${(spun / spinAtRate1).toFixed(1)}× its unthrottled time`);
      return page.evaluate(async (n) => {
        const b = (globalThis as unknown as { __secretBench: PageBench }).__secretBench;
        const mls = await b.measureSecret(n);
        return { ...mls, aesGcmMs: await b.measureAesGcm(n) };
      }, N);
    };
    // Untimed first pass: both profiles then time code the JIT has already compiled.
    await page.evaluate(() => (globalThis as unknown as { __secretBench: PageBench }).__secretBench.measureSecret(3));
    const plain = await run(1);
    const phone = await run(MOBILE.cpuSlowdown);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

    const version = browser.version();
    console.log(
      `\n(e) Secret chats' MLS in Chromium ${version} (ts-mls ciphersuite 1, bench/secret/measure.ts), median of ${N}, ms; load average ${loadAverage()}`,
    );
    const f = (x: number) => x.toFixed(x < 0.1 ? 3 : 2);
    const row = (what: string, key: keyof typeof plain) => ({
      operation: what,
      unthrottled: f(plain[key]),
      [`phone (CPU ${MOBILE.cpuSlowdown}×)`]: f(phone[key]),
    });
    console.table([
      row('encrypt 1 KB', 'encryptMs'),
      row('decrypt 1 KB', 'decryptMs'),
      row('baseline: WebCrypto AES-GCM encrypt 1 KB', 'aesGcmMs'),
      row('50 devices: add one (commit + welcome)', 'addMs'),
      row('50 devices: apply that commit on another member', 'addApplyMs'),
      row('50 devices: remove one (commit)', 'removeMs'),
      row('identity check of one added device (signature, 50 leaves)', 'leafCheckMs'),
      row('50 devices: update own leaf (commit with a path)', 'updateMs'),
      row('50 devices: apply that update on another member', 'updateApplyMs'),
    ]);
    console.log(
      `    encrypt / AES-GCM baseline: ${(plain.encryptMs / plain.aesGcmMs).toFixed(0)}× unthrottled, ${(phone.encryptMs / phone.aesGcmMs).toFixed(0)}× on the phone profile`,
    );
    const phoneName = `phone profile (CPU ${MOBILE.cpuSlowdown}×)`;
    checks.push([
      `secret chat: encrypt 1 KB ≤ ${ENCRYPT_TARGET_MS} ms, ${phoneName}`,
      phone.encryptMs <= ENCRYPT_TARGET_MS,
      `${f(phone.encryptMs)} ms`,
    ]);
    checks.push([
      `secret chat: decrypt 1 KB ≤ ${ENCRYPT_TARGET_MS} ms, ${phoneName}`,
      phone.decryptMs <= ENCRYPT_TARGET_MS,
      `${f(phone.decryptMs)} ms`,
    ]);
    checks.push([
      `secret chat: identity check per added device ≤ ${LEAF_CHECK_TARGET_MS} ms, ${phoneName}`,
      phone.leafCheckMs <= LEAF_CHECK_TARGET_MS,
      `${f(phone.leafCheckMs)} ms`,
    ]);
    for (const [name, r] of [
      [phoneName, phone],
      ['unthrottled', plain],
    ] as const) {
      checks.push([
        `50-device group: add one device ≤ ${MEMBERSHIP_TARGET_MS} ms, ${name}`,
        r.addMs <= MEMBERSHIP_TARGET_MS,
        `${f(r.addMs)} ms`,
      ]);
      checks.push([
        `50-device group: remove one device ≤ ${MEMBERSHIP_TARGET_MS} ms, ${name}`,
        r.removeMs <= MEMBERSHIP_TARGET_MS,
        `${f(r.removeMs)} ms`,
      ]);
      checks.push([
        `50-device group: update own leaf ≤ ${MEMBERSHIP_TARGET_MS} ms, ${name}`,
        r.updateMs <= MEMBERSHIP_TARGET_MS,
        `${f(r.updateMs)} ms`,
      ]);
    }
    results.secret = { n: N, chromium: version, cpuSlowdown: MOBILE.cpuSlowdown, unthrottled: plain, phone };
  } finally {
    await context.close();
    await site.close();
  }
}

const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

export async function runSecretPart(checks: Check[], results: Record<string, unknown>) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    await secretPart(browser, checks, results);
  } finally {
    await browser.close();
  }
}
