// (f) register — the main-thread time a signed-in page spends becoming a device of secret chats in the background
// (docs/secret-chats.md "Reaching everyone"), on the phone profile's CPU (CDP CPU throttling): the renderer main
// thread's task time (CDP Performance.getMetrics TaskDuration) from the request for the registration's code (the first secret chats' wiring chunk, asked for once the page is idle) to
// the answer that stored its key packages. The keys themselves are made in the crypto worker, off the main thread.
// Baselines: the same metric over an equally long window on the same page once it is idle, and the floor any
// registration in a worker pays: a fresh page starting an empty worker and hearing from it, in the same run (Chromium
// spends tens of milliseconds of the page's main thread on starting a worker at all, more with DevTools attached to
// every worker as Playwright is).
import { type Browser, type CDPSession, chromium } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { startTestServer } from '../../tests/server/harness';
import { createUser, signInContext } from '../../e2e/users';
import { MOBILE } from './delivery';
import type { Check } from './run';

const RUNS = Number(process.env.BENCH_REGISTER_RUNS ?? 3);
export const REGISTER_TARGET_MS = 50;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Main-thread task time of a fresh, idle page (the sign-in page) starting an empty worker and hearing from it. */
async function emptyWorkerMs(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ baseURL: url, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
    await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
    // Quiet first: the page's own work after its load (lazy chunks, the first idle callbacks) must not be counted.
    let before = await taskMs(cdp);
    for (;;) {
      await page.waitForTimeout(500);
      const now = await taskMs(cdp);
      if (now - before < 2) break;
      before = now;
    }
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const worker = new Worker(URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' })));
          worker.onmessage = () => {
            worker.terminate();
            resolve();
          };
        }),
    );
    return (await taskMs(cdp)) - before;
  } finally {
    await context.close();
  }
}

async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return 1000 * (metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN);
}

export async function runRegisterPart(opts: { dist: string; checks: Check[]; results: Record<string, unknown> }) {
  const srv = await startTestServer({ clientDir: opts.dist });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  const runs: { registerMs: number; windowMs: number; idleMs: number; workerMs: number }[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const me = await createUser(srv.url, 'Телефон', 'reg');
      // No service worker: its precache's preloads would land in the same window and be counted as registration.
      const context = await browser.newContext({ baseURL: srv.url, serviceWorkers: 'block' });
      await signInContext(context, me);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
      let start: Promise<[number, number]> | null = null;
      page.on('request', (r) => {
        if (!start && /\/assets\/secretChats-[^/]*\.js$/.test(new URL(r.url()).pathname))
          start = taskMs(cdp).then((t) => [t, Date.now()]);
      });
      const stored = page.waitForResponse((r) => r.url().endsWith('/api/secret/key-packages') && r.ok(), {
        timeout: 60_000,
      });
      // BENCH_REGISTER_TRACE=<dir>: a Chromium trace of each run, with the JavaScript profile (DevTools' Performance
      // panel opens it), to see where the main thread's time goes.
      const trace = process.env.BENCH_REGISTER_TRACE;
      if (trace)
        await browser.startTracing(page, {
          path: `${trace}/register-${i}.json`,
          categories: [
            'devtools.timeline',
            'v8.execute',
            'disabled-by-default-devtools.timeline',
            'disabled-by-default-v8.cpu_profiler',
            'toplevel',
          ],
        });
      await page.goto(`${srv.url}/`);
      await stored;
      if (trace) await browser.stopTracing();
      const end = await taskMs(cdp);
      const endAt = Date.now();
      if (!start) throw new Error('the secret chats wiring was never requested');
      const [begin, beginAt] = await (start as Promise<[number, number]>);
      const windowMs = endAt - beginAt;
      const idleFrom = await taskMs(cdp);
      await page.waitForTimeout(windowMs);
      const idleMs = (await taskMs(cdp)) - idleFrom;
      await context.close();
      runs.push({ registerMs: end - begin, windowMs, idleMs, workerMs: await emptyWorkerMs(browser, srv.url) });
    }
  } finally {
    await browser.close();
    await srv.close();
  }
  const registerMs = median(runs.map((r) => r.registerMs));
  console.log(
    `\n(f) Background registration as a secret-chat device, main-thread task time on the phone profile's CPU (${MOBILE.cpuSlowdown}×), ${RUNS} runs`,
  );
  console.table(
    runs.map((r) => ({
      'main thread ms': r.registerMs.toFixed(0),
      'window ms': r.windowMs,
      'idle baseline ms': r.idleMs.toFixed(0),
      'empty worker ms': r.workerMs.toFixed(0),
    })),
  );
  const workerMs = median(runs.map((r) => r.workerMs));
  console.log(
    `registration ${registerMs.toFixed(0)} ms (median); an empty worker alone ${workerMs.toFixed(0)} ms in the same run: ${(registerMs / workerMs).toFixed(2)}x`,
  );
  opts.checks.push([
    `secret-chat device registration ≤ ${REGISTER_TARGET_MS} ms main thread, phone profile (CPU ${MOBILE.cpuSlowdown}×)`,
    registerMs <= REGISTER_TARGET_MS,
    `${registerMs.toFixed(0)} ms (median)`,
  ]);
  opts.results.register = { runs, cpuSlowdown: MOBILE.cpuSlowdown, medianMs: registerMs, emptyWorkerMs: workerMs };
}
