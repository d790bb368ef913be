// (d) What users receive: a signed-in cold load of the chats page through the real server over HTTP, in Chromium
// under a phone-class profile (CDP network and CPU emulation), with the bytes counted on the wire and LCP, FCP and
// CLS read from the page; then a repeat visit in the same browser context (what the HTTP cache saves). A plain
// static page served by the same server under the same profile is the baseline. See bench/README.md.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';
import type { TestServer } from '../../tests/server/harness';
import { createUser, directConversation, type E2EUser, makeFriends, sendText, signInContext } from '../../e2e/users';
import { measureLoadWindow, whyFetched } from './load-window';
import type { Check } from './run';

const env = process.env;
/** Lighthouse's mobile profile: 4× CPU slowdown, 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
export const MOBILE = { cpuSlowdown: 4, latencyMs: 150, downBitsPerS: 1.6e6, upBitsPerS: 750e3 };
const RUNS = Number(env.BENCH_LOAD_RUNS ?? 3);
const CONVERSATIONS = 12;
export const PLAIN_PAGE = 'bench-plain.html';
/** JavaScript on the wire until the chat list has painted (what is fetched after it is the prefetch). */
const BUDGET_JS_WIRE_BEFORE_PAINT = 150 * 1024;
/** How long after the list shows the visit goes on recording: what the page fetches in its first seconds. */
const AFTER_READY_MS = 3_000;
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '—');
const median = (xs: number[]) => {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A phone-sized viewport (Lighthouse's Moto G Power). */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

interface Transfer {
  url: string;
  type: string;
  status: number;
  /** Bytes received for it on the wire (headers + body as sent, i.e. compressed), 0 when served from the cache. */
  wire: number;
  encoding: string;
  cacheControl: string;
  fromCache: boolean;
  /** When it was requested and when its last byte arrived, ms after the visit's first request. */
  start: number;
  end: number;
}

/** Records every response the page loads: bytes on the wire (loadingFinished.encodedDataLength) and cache hits. */
async function recordNetwork(cdp: CDPSession) {
  const byId = new Map<string, Transfer>();
  const started = new Map<string, number>();
  // Chromium reports a cache hit before the response itself: remember the request.
  const cached = new Set<string>();
  let origin: number | null = null;
  const at = (timestamp: number) => (timestamp - (origin ?? timestamp)) * 1000;
  cdp.on('Network.requestWillBeSent', (e) => {
    origin ??= e.timestamp;
    started.set(e.requestId, at(e.timestamp));
  });
  cdp.on('Network.responseReceived', (e) => {
    const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    byId.set(e.requestId, {
      url: e.response.url,
      type: e.type ?? 'Other',
      status: e.response.status,
      wire: 0,
      encoding: h['content-encoding'] ?? 'identity',
      cacheControl: h['cache-control'] ?? '',
      fromCache: cached.has(e.requestId) || Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache),
      start: started.get(e.requestId) ?? Number.NaN,
      end: Number.NaN,
    });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    cached.add(e.requestId);
    const t = byId.get(e.requestId);
    if (t) t.fromCache = true;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const t = byId.get(e.requestId);
    if (!t) return;
    t.wire = e.encodedDataLength;
    t.end = at(e.timestamp);
  });
  await cdp.send('Network.enable');
  return {
    transfers: () => [...byId.values()],
    clear: () => {
      byId.clear();
      started.clear();
      cached.clear();
      origin = null;
    },
  };
}

/** Observers for LCP, FCP and CLS, installed before any page script runs. */
function installVitals(): void {
  const v = { lcp: 0, lcpElement: '', fcp: 0, cls: 0, candidates: [] as string[] };
  (window as unknown as { __vitals: typeof v }).__vitals = v;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { element?: Element | null })[]) {
      v.lcp = e.startTime;
      const el = e.element;
      v.lcpElement = el
        ? `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''} "${(el.textContent ?? '').slice(0, 40)}"`
        : '';
      v.candidates.push(
        `${Math.round(e.startTime)} ms, ${(e as unknown as { size: number }).size} px²: ${v.lcpElement}`,
      );
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') v.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
      if (!e.hadRecentInput) v.cls += e.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

async function throttle(cdp: CDPSession) {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: MOBILE.latencyMs,
    downloadThroughput: MOBILE.downBitsPerS / 8,
    uploadThroughput: MOBILE.upBitsPerS / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
}

interface Visit {
  lcp: number;
  fcp: number;
  cls: number;
  lcpElement: string;
  candidates: string[];
  jsWire: number;
  /** Scripts requested before the list painted (LCP: the tiles' text). */
  jsWireBeforePaint: number;
  totalWire: number;
  assetsFetched: string[];
  transfers: Transfer[];
}

/** Loads `url` in `page` (throttled) and waits until `ready` is visible and the network has been quiet. */
async function visit(
  page: Page,
  net: Awaited<ReturnType<typeof recordNetwork>>,
  url: string,
  ready: string,
): Promise<Visit> {
  net.clear();
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  await page.locator(ready).first().waitFor({ timeout: 120_000 });
  // The load and its first seconds: the code the page fetches once the list has painted is counted (apart).
  await page.waitForTimeout(AFTER_READY_MS);
  await page.waitForLoadState('networkidle', { timeout: 120_000 }).catch(() => undefined);
  await page.waitForTimeout(500);
  const vitals = await page.evaluate(
    () =>
      (window as unknown as { __vitals: Pick<Visit, 'lcp' | 'fcp' | 'cls' | 'lcpElement' | 'candidates'> }).__vitals,
  );
  const transfers = net.transfers().filter((t) => !t.url.startsWith('data:'));
  const sameOrigin = transfers.filter((t) => new URL(t.url).origin === new URL(url).origin);
  return {
    ...vitals,
    jsWire: sameOrigin.filter((t) => t.type === 'Script').reduce((n, t) => n + t.wire, 0),
    jsWireBeforePaint: sameOrigin
      .filter((t) => t.type === 'Script' && t.start < vitals.lcp)
      .reduce((n, t) => n + t.wire, 0),
    totalWire: sameOrigin.reduce((n, t) => n + t.wire, 0),
    assetsFetched: sameOrigin
      .filter((t) => new URL(t.url).pathname.startsWith('/assets/') && !t.fromCache && t.wire > 0)
      .map((t) => new URL(t.url).pathname),
    transfers: sameOrigin,
  };
}

/** A fresh context (empty HTTP cache) on a phone profile, throttled, with the vitals observers. */
async function phonePage(browser: Browser, base: string, user: E2EUser | null) {
  const context: BrowserContext = await browser.newContext({ baseURL: base, ...PHONE });
  if (user) await signInContext(context, user);
  await context.addInitScript({ content: `globalThis.__name ??= (f) => f;(${installVitals.toString()})();` });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const net = await recordNetwork(cdp);
  await throttle(cdp);
  return { context, page, cdp, net };
}

/** The baseline page: static HTML of about the chats page's visible text, no script; returns its remover. */
export function writePlainPage(dist: string): () => void {
  const rows = Array.from(
    { length: CONVERSATIONS },
    (_, i) => `<li><b>Собеседник ${i + 1}</b><br><span>Последнее сообщение беседы</span></li>`,
  ).join('');
  fs.writeFileSync(
    path.join(dist, PLAIN_PAGE),
    `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Беседа</title></head><body><h1 id="plain">Чаты</h1><ul>${rows}</ul></body></html>`,
  );
  return () => fs.rmSync(path.join(dist, PLAIN_PAGE), { force: true });
}

async function seedUser(base: string): Promise<E2EUser> {
  const me = await createUser(base, 'Телефон', 'phone');
  for (let i = 0; i < CONVERSATIONS; i++) {
    const friend = await createUser(base, `Собеседник ${i + 1}`, 'pal');
    await makeFriends(base, friend, me);
    const id = await directConversation(base, friend, me);
    await sendText(base, friend, id, `Привет! Это сообщение номер ${i + 1}, чтобы в списке была подпись.`);
  }
  return me;
}

/** Needs the plain page written into the build (writePlainPage) before the server started: it lists files at start. */
export async function deliveryPart(
  browser: Browser,
  srv: TestServer,
  checks: Check[],
  results: Record<string, unknown>,
  dist: string,
) {
  const why = whyFetched(dist);
  const loadWindow = measureLoadWindow(dist);
  const budgeted = new Set(loadWindow.beforePaint.map((c) => `/${c.file}`));
  const me = await seedUser(srv.url);
  console.log(
    `\n(d) What users receive: the chats page, signed in, cold cache, phone profile (CPU ${MOBILE.cpuSlowdown}× slower, ${MOBILE.latencyMs} ms latency, ${MOBILE.downBitsPerS / 1e6} Mbit/s down), ${RUNS} runs, medians`,
  );
  const cold: Visit[] = [];
  const repeat: Visit[] = [];
  const plain: Visit[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Baseline first in each run, then the app; each in a fresh context (own, empty cache).
    const b = await phonePage(browser, srv.url, null);
    try {
      plain.push(await visit(b.page, b.net, `${srv.url}/${PLAIN_PAGE}`, '#plain'));
    } finally {
      await b.context.close();
    }
    const a = await phonePage(browser, srv.url, me);
    try {
      if (run === 0 && env.BENCH_TRACE) {
        await browser.startTracing(a.page, {
          path: env.BENCH_TRACE,
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'v8',
            'loading',
            'blink.user_timing',
          ],
        });
      }
      if (run === 0 && env.BENCH_CPU_PROFILE) {
        await a.cdp.send('Profiler.enable');
        await a.cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await a.cdp.send('Profiler.start');
      }
      cold.push(await visit(a.page, a.net, `${srv.url}/`, '[data-testid="chat-tile"]'));
      if (run === 0 && env.BENCH_CPU_PROFILE) {
        const { profile } = await a.cdp.send('Profiler.stop');
        fs.writeFileSync(env.BENCH_CPU_PROFILE, JSON.stringify(profile));
      }
      if (run === 0 && env.BENCH_TRACE) {
        await browser.stopTracing();
      }
      // The repeat visit: a new navigation to the page in the same context (the HTTP cache is warm).
      repeat.push(await visit(a.page, a.net, `${srv.url}/`, '[data-testid="chat-tile"]'));
    } finally {
      await a.context.close();
    }
  }
  const row = (name: string, vs: Visit[]) => ({
    load: name,
    'JS before the list painted KB': kb(median(vs.map((v) => v.jsWireBeforePaint))),
    'JS in load + 3 s KB': kb(median(vs.map((v) => v.jsWire))),
    'all on the wire KB': kb(median(vs.map((v) => v.totalWire))),
    'FCP ms': ms(median(vs.map((v) => v.fcp))),
    'LCP ms': ms(median(vs.map((v) => v.lcp))),
    CLS: median(vs.map((v) => v.cls)).toFixed(3),
    'assets fetched': median(vs.map((v) => v.assetsFetched.length)),
  });
  console.table([
    row('chats page, cold', cold),
    row('chats page, repeat visit', repeat),
    row('baseline: plain static page', plain),
  ]);
  const first = cold[0];
  console.log(
    `    cold load, per response (first run; list painted at ${ms(first.lcp)} ms; "before"/"after": requested before or after it):`,
  );
  for (const t of first.transfers) {
    const file = new URL(t.url).pathname;
    const when = t.start < first.lcp ? 'before' : 'after ';
    console.log(
      `      ${ms(t.start).padStart(5)}–${ms(t.end).padEnd(5)} ms ${when} ${String(t.status).padEnd(4)} ${t.type.padEnd(10)} ${kb(t.wire).padStart(7)} KB  ${t.encoding.padEnd(8)} ${t.cacheControl.padEnd(38)} ${file}`,
    );
  }
  console.log('    every script of the cold load and its first 3 s, and why it is there (first run):');
  for (const t of first.transfers.filter((x) => x.type === 'Script')) {
    const file = new URL(t.url).pathname;
    console.log(
      `      ${t.start < first.lcp ? 'before' : 'after '} ${kb(t.wire).padStart(6)} KB  ${file.padEnd(46)} ${why.get(file) ?? '(not in the manifest)'}`,
    );
  }
  // Every script the page asked for before its list painted is one the load window's budget (a) counts.
  const unbudgeted = [
    ...new Set(
      cold.flatMap((v) =>
        v.transfers
          .filter((t) => t.type === 'Script' && t.start < v.lcp && !budgeted.has(new URL(t.url).pathname))
          .map((t) => new URL(t.url).pathname),
      ),
    ),
  ];
  console.log(
    `    the load window from the manifest: ${kb(loadWindow.beforePaintGzip)} KB gzip before the list's paint, ${kb(loadWindow.afterPaintGzip)} KB prefetched after it`,
  );
  console.log(
    `    FCP ${ms(first.fcp)} ms; LCP candidates (time after navigation start, size, element): ${first.candidates.join('; ')}`,
  );
  const lcp = median(cold.map((v) => v.lcp));
  const fcp = median(cold.map((v) => v.fcp));
  const basePlain = median(plain.map((v) => v.lcp));
  console.log(
    `    LCP vs the plain page: ${(lcp / basePlain).toFixed(2)}× (${ms(lcp)} against ${ms(basePlain)} ms); FCP ${(fcp / median(plain.map((v) => v.fcp))).toFixed(2)}×`,
  );
  const jsWire = median(cold.map((v) => v.jsWire));
  const jsWireBeforePaint = median(cold.map((v) => v.jsWireBeforePaint));
  const manifestGzip = (results.bundle as { totalGzip?: number } | undefined)?.totalGzip;
  if (manifestGzip)
    console.log(
      `    JavaScript on the wire ${kb(jsWire)} KB against the manifest's gzip figure (a) ${kb(manifestGzip)} KB`,
    );
  const maxCls = Math.max(...cold.map((v) => v.cls));
  const refetched = repeat.flatMap((v) => v.assetsFetched);
  checks.push([
    `JavaScript on the wire before the list painted, cold signed-in load ≤ ${kb(BUDGET_JS_WIRE_BEFORE_PAINT)} KB`,
    jsWireBeforePaint <= BUDGET_JS_WIRE_BEFORE_PAINT,
    `${kb(jsWireBeforePaint)} KB (${kb(jsWire)} KB with what follows in the first 3 s)`,
  ]);
  checks.push([
    "every script fetched before the list's paint is in the load window's budget (a)",
    unbudgeted.length === 0,
    unbudgeted.length ? `not counted: ${unbudgeted.join(', ')}` : 'all counted',
  ]);
  checks.push(['LCP ≤ 2.5 s under the mobile profile', lcp <= 2500, `${ms(lcp)} ms (plain page ${ms(basePlain)} ms)`]);
  checks.push(['CLS ≤ 0.1 under the mobile profile', maxCls <= 0.1, `${maxCls.toFixed(3)} (worst run)`]);
  checks.push([
    'repeat visit fetches no asset again',
    refetched.length === 0,
    refetched.length ? `${refetched.length} requests over ${RUNS} runs: ${[...new Set(refetched)].join(', ')}` : 'none',
  ]);
  results.delivery = { profile: MOBILE, cold, repeat, plain };
}
