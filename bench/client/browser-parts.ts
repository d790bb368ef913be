// (b) send → painted and (c) the 10,000-message conversation, in real Chromium against the real server (started
// here in-process from the benchmark's build, as the e2e tests do). See bench/README.md for the method.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { startTestServer, type TestServer } from '../../tests/server/harness';
import { createUser, directConversation, type E2EUser, makeFriends, signInContext } from '../../e2e/users';
import { deliveryPart, writePlainPage } from './delivery';
import { type BenchProbe, installProbe, scrollAndCountFrames } from './page-probes';
import type { Check } from './run';

const env = process.env;
const MESSAGES = Number(env.BENCH_MESSAGES ?? 100);
const WARMUP = 5;
const HISTORY = Number(env.BENCH_HISTORY ?? 10_000);
const SCROLL_MS = 5_000;
const SCROLL_PX_PER_S = 3_000; // a brisk flick through the history
// Letters only after the number: the bubble's time ('10:22') follows the text with no space in textContent.
const TOKEN = 'bench-\\d+-[a-z]+';

const COMPOSER = 'Напишите сообщение...';
const MESSAGE = '[data-testid="message"]';

const nodeNow = () => performance.timeOrigin + performance.now();
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo);
};
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');

// Functions handed to the page are sent as source text; tsx's keepNames wraps them in __name(), absent there.
const shim = 'globalThis.__name ??= (f) => f;';
const probeScript = `${shim}(${installProbe.toString()})(${JSON.stringify(TOKEN)});`;
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __bench: BenchProbe }).__bench);

/**
 * Offset of a page's clock from Node's: the page's `timeOrigin + now()` minus the midpoint of the round trip that
 * read it, from the fastest of 15 round trips (its half-width bounds the error).
 */
async function calibrate(page: Page): Promise<{ offset: number; error: number }> {
  let best = { offset: 0, error: Number.POSITIVE_INFINITY };
  for (let i = 0; i < 15; i++) {
    const n0 = nodeNow();
    const p = await page.evaluate(() => performance.timeOrigin + performance.now());
    const n1 = nodeNow();
    if ((n1 - n0) / 2 < best.error) best = { offset: p - (n0 + n1) / 2, error: (n1 - n0) / 2 };
  }
  return best;
}

async function signedInPage(browser: Browser, base: string, u: E2EUser, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ baseURL: base, viewport });
  await signInContext(context, u);
  await context.addInitScript({ content: probeScript });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  return { context, page };
}

/** Opens a conversation from the list: its tile (data-conversation-id), or the tile that names the other person. */
async function openConversation(page: Page, conversationId: string, otherName: string) {
  const byId = page.locator(`[data-conversation-id="${conversationId}"]`).first();
  const tile = (await byId.count()) > 0 ? byId : page.getByRole('button', { name: new RegExp(otherName) }).first();
  await tile.waitFor({ timeout: 20_000 });
  await tile.click();
}

async function latencyPart(browser: Browser, srv: TestServer, checks: Check[], results: Record<string, unknown>) {
  const [a, b] = await Promise.all([
    createUser(srv.url, 'Отправитель', 'snd'),
    createUser(srv.url, 'Получатель', 'rcv'),
  ]);
  await makeFriends(srv.url, a, b);
  const conversationId = await directConversation(srv.url, a, b);
  const contexts: BrowserContext[] = [];
  try {
    const A = await signedInPage(browser, srv.url, a);
    const B = await signedInPage(browser, srv.url, b);
    contexts.push(A.context, B.context);
    await openConversation(A.page, conversationId, b.displayName);
    await openConversation(B.page, conversationId, a.displayName);
    const composer = A.page.getByPlaceholder(COMPOSER);
    await composer.waitFor({ timeout: 20_000 });

    const nonce = Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
    const tokens: string[] = [];
    for (let i = 0; i < WARMUP + MESSAGES; i++) {
      const token = `bench-${i}-${nonce}`;
      if (i >= WARMUP) tokens.push(token);
      await composer.fill(`Сообщение ${i + 1} ${token}`);
      await composer.press('Enter');
      await B.page
        .waitForFunction(
          (t) => (window as unknown as { __bench: BenchProbe }).__bench.painted[t] !== undefined,
          token,
          { timeout: 10_000 },
        )
        .catch(async (err) => {
          const [pa, pb] = [await probe(A.page), await probe(B.page)];
          const seen = (p: BenchProbe) =>
            Object.entries(p)
              .filter(([, v]) => token in v)
              .map(([k]) => k);
          const bubbles = await B.page.locator(MESSAGE).allTextContents();
          throw new Error(
            `${token} not painted at the receiver within 10 s (sender saw: ${seen(pa).join(', ') || 'nothing'}; receiver saw: ${seen(pb).join(', ') || 'nothing'}; receiver's last bubbles: ${JSON.stringify(bubbles.slice(-3))})`,
            { cause: err },
          );
        });
    }
    const [ca, cb] = [await calibrate(A.page), await calibrate(B.page)];
    const [pa, pb] = [await probe(A.page), await probe(B.page)];
    // On Node's clock: page time − page offset.
    const rows = tokens.map((t) => {
      const key = pa.keyed[t] - ca.offset;
      const at = (x: number | undefined, offset: number) => (x === undefined ? Number.NaN : x - offset - key);
      return {
        left: at(pa.left[t], ca.offset),
        arrived: at(pb.arrived[t], cb.offset),
        inserted: at(pb.inserted[t], cb.offset),
        painted: at(pb.painted[t], cb.offset),
      };
    });
    const col = (k: keyof (typeof rows)[number]) => rows.map((r) => r[k]).filter(Number.isFinite);
    const summary = (['left', 'arrived', 'inserted', 'painted'] as const).map((k) => ({
      'Enter → …': {
        left: 'left the sender',
        arrived: 'frame at the receiver',
        inserted: 'bubble in the DOM',
        painted: 'bubble painted',
      }[k],
      n: col(k).length,
      'median ms': ms(quantile(col(k), 0.5)),
      'p95 ms': ms(quantile(col(k), 0.95)),
      'max ms': ms(Math.max(...col(k))),
    }));
    console.log(
      `\n(b) Send → painted on the receiver's screen: ${MESSAGES} messages typed into the composer one after another (after ${WARMUP} warm-up)`,
    );
    console.log(
      `    clocks: sender page ${ms(ca.offset)} ± ${ms(ca.error)} ms, receiver page ${ms(cb.offset)} ± ${ms(cb.error)} ms from Node's`,
    );
    console.table(summary);
    const painted = col('painted');
    const arrived = col('arrived');
    const p95 = quantile(painted, 0.95);
    const clientShare = quantile(painted, 0.5) - quantile(arrived, 0.5);
    console.log(
      `    receiver's own part (frame → painted), median: ${ms(clientShare)} ms; painted vs frame arrival (the wire and server, the baseline): ${(quantile(painted, 0.5) / quantile(arrived, 0.5)).toFixed(2)}× median, ${(p95 / quantile(arrived, 0.95)).toFixed(2)}× p95`,
    );
    checks.push([
      `send → painted p95 ≤ 100 ms (${painted.length}/${MESSAGES} measured)`,
      p95 <= 100 && painted.length === MESSAGES,
      `${ms(p95)} ms (median ${ms(quantile(painted, 0.5))} ms)`,
    ]);
    results.latency = { summary, clocks: { sender: ca, receiver: cb }, rows };
  } finally {
    for (const c of contexts) await c.close();
  }
}

/** Writes `count` alternating messages straight into the database (the API would take minutes for 10,000). */
async function seedHistory(srv: TestServer, conversationId: string, me: E2EUser, other: E2EUser, count: number) {
  const { db } = srv.server.ctx;
  const base = Date.now() - count * 60_000;
  const lines = [
    'Привет!',
    'Как дела?',
    'Посмотри, что я нашёл — очень длинная строка, чтобы пузырь занял несколько строк и высота сообщений различалась, как в настоящей переписке.',
    'Ок',
    'Созвонимся вечером?',
  ];
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    conversation_id: conversationId,
    sender_id: i % 3 === 0 ? me.user.id : other.user.id,
    type: 'TEXT',
    content: `${i + 1}. ${lines[i % lines.length]}`,
    reply_to_id: null,
    client_message_id: null,
    created_at: new Date(base + i * 60_000).toISOString(),
    deleted_at: null,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('messages')
      .values(rows.slice(i, i + 500))
      .execute();
  // Everything read but the last few, so opening it posts a handful of receipts, not thousands.
  const read = rows.slice(0, -3).filter((r) => r.sender_id !== me.user.id);
  for (let i = 0; i < read.length; i += 500) {
    await db
      .insertInto('receipts')
      .values(
        read.slice(i, i + 500).map((r) => ({
          message_id: r.id,
          user_id: me.user.id,
          conversation_id: conversationId,
          status: 'READ',
          created_at: r.created_at,
        })),
      )
      .execute();
  }
  return rows[rows.length - 1].id;
}

async function timeToPaint(page: Page, conversationId: string, name: string, newestId: string, again = false) {
  // Reopening: forget when the newest message was first painted, so its next painting is what is timed.
  if (again)
    await page.evaluate((id) => delete (window as unknown as { __bench: BenchProbe }).__bench.idPainted[id], newestId);
  if (again)
    await page.evaluate((id) => delete (window as unknown as { __bench: BenchProbe }).__bench.idInserted[id], newestId);
  const clicksBefore = (await probe(page)).clicks.length;
  await openConversation(page, conversationId, name);
  await page.waitForFunction(
    (id) => (window as unknown as { __bench: BenchProbe }).__bench.idPainted[id] !== undefined,
    newestId,
    {
      timeout: 30_000,
    },
  );
  const p = await probe(page);
  return p.idPainted[newestId] - p.clicks[clicksBefore];
}

/** The scroll driver on a static 400,000 px column in a fresh page of its own: the machine's and Chromium's ceiling. */
async function plainBaseline(browser: Browser): Promise<{ intervals: number[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const plain = await context.newPage();
    await plain.setContent(
      `<div id="s" style="height:800px;overflow-y:auto"><div style="height:400000px;background:repeating-linear-gradient(#fff 0 40px,#eef 40px 80px)"><p data-testid="message">x</p></div></div>`,
    );
    await plain.evaluate(() => {
      const s = document.getElementById('s')!;
      s.scrollTop = s.scrollHeight;
    });
    return (await plain.evaluate(
      `${shim}(${scrollAndCountFrames.toString()})(${JSON.stringify({ selector: MESSAGE, pxPerSecond: SCROLL_PX_PER_S, ms: SCROLL_MS, direction: 'up' })})`,
    )) as { intervals: number[] };
  } finally {
    await context.close();
  }
}

async function scrollPart(browser: Browser, srv: TestServer, checks: Check[], results: Record<string, unknown>) {
  const [me, big, small] = await Promise.all([
    createUser(srv.url, 'Читатель', 'rdr'),
    createUser(srv.url, 'Долгая переписка', 'big'),
    createUser(srv.url, 'Короткая переписка', 'sml'),
  ]);
  await Promise.all([makeFriends(srv.url, big, me), makeFriends(srv.url, small, me)]);
  const bigId = await directConversation(srv.url, me, big);
  const smallId = await directConversation(srv.url, me, small);
  const t0 = nodeNow();
  const bigNewest = await seedHistory(srv, bigId, me, big, HISTORY);
  const smallNewest = await seedHistory(srv, smallId, me, small, 20);
  console.log(
    `\n(c) ${HISTORY.toLocaleString('en')}-message conversation (seeded into the database in ${((nodeNow() - t0) / 1000).toFixed(1)} s), 1280×800`,
  );

  const { context, page } = await signedInPage(browser, srv.url, me);
  try {
    // Opening: click on the tile → the newest message painted. The 20-message conversation is the baseline.
    // The first opening also pays for first-use work (code paths compiled, styles); it is a warm-up, not counted.
    await timeToPaint(page, smallId, small.displayName, smallNewest);
    const bigMs = await timeToPaint(page, bigId, big.displayName, bigNewest);
    const smallMs = await timeToPaint(page, smallId, small.displayName, smallNewest, true);
    const bigAgainMs = await timeToPaint(page, bigId, big.displayName, bigNewest, true); // and it stays open for scrolling
    await page.waitForTimeout(500); // let the opening settle (receipts, images) before scrolling

    const scroll = (direction: 'up' | 'down') =>
      page.evaluate(
        `${shim}(${scrollAndCountFrames.toString()})(${JSON.stringify({ selector: MESSAGE, pxPerSecond: SCROLL_PX_PER_S, ms: SCROLL_MS, direction })})`,
      ) as Promise<{
        intervals: number[];
        scrolledPx: number;
        scrollHeightBefore: number;
        scrollHeightAfter: number;
      }>;
    const before = await plainBaseline(browser);
    const seenBefore = Object.keys((await probe(page)).idInserted).length;
    const up = await scroll('up');
    const loaded = await page.locator(MESSAGE).evaluateAll((els) => els.length);
    const passed = Object.keys((await probe(page)).idInserted).length - seenBefore;
    const down = await scroll('down');

    // Baseline: the same driver on a plain tall page in the same browser, once before and once after (load drifts).
    const base = { intervals: [...before.intervals, ...(await plainBaseline(browser)).intervals] };

    const stats = (intervals: number[]) => {
      const total = intervals.reduce((n, x) => n + x, 0);
      return {
        fps: (1000 * intervals.length) / total,
        p50: quantile(intervals, 0.5),
        p95: quantile(intervals, 0.95),
        max: Math.max(...intervals),
        long: intervals.filter((x) => x > 50).length,
      };
    };
    const rows = [
      { run: 'history, scrolling up (older pages load)', ...stats(up.intervals), px: up.scrolledPx },
      { run: 'history, scrolling down', ...stats(down.intervals), px: down.scrolledPx },
      { run: 'baseline: plain tall page (before + after)', ...stats(base.intervals), px: Number.NaN },
    ];
    console.log(
      `    open (click on the tile → newest message painted): ${ms(bigMs)} ms, again ${ms(bigAgainMs)} ms; the 20-message conversation (baseline): ${ms(smallMs)} ms; ratio ${(bigMs / smallMs).toFixed(2)}×`,
    );
    console.log(
      `    scrolling at ${SCROLL_PX_PER_S} px/s for ${SCROLL_MS / 1000} s each way: ${passed} older messages came into view going up (pages loaded on the way); ${loaded} message elements in the DOM at the top (virtualized)`,
    );
    console.table(
      rows.map((r) => ({
        run: r.run,
        fps: r.fps.toFixed(1),
        'vs baseline': `${(r.fps / rows[2].fps).toFixed(2)}×`,
        'frame p50 ms': ms(r.p50),
        'frame p95 ms': ms(r.p95),
        'max ms': ms(r.max),
        'frames > 50 ms': r.long,
        'scrolled px': Number.isFinite(r.px) ? Math.round(r.px) : '',
      })),
    );
    const worst = Math.min(rows[0].fps, rows[1].fps);
    checks.push([
      '10,000-message history scrolls at ≥ 55 fps',
      worst >= 55,
      `${worst.toFixed(1)} fps (baseline ${rows[2].fps.toFixed(1)} fps)`,
    ]);
    // The same target as a share of what this machine gave a static page in this run (55 of 60 fps).
    const share = worst / rows[2].fps;
    checks.push([
      'history scrolling ≥ 0.92× the plain page’s fps in the same run',
      share >= 55 / 60,
      `${share.toFixed(2)}×`,
    ]);
    results.scroll = { openMs: bigMs, reopenMs: bigAgainMs, openSmallMs: smallMs, rows, loaded, passed };
  } finally {
    await context.close();
  }
}

export async function runBrowserParts(opts: {
  dist: string;
  parts: Set<string>;
  checks: Check[];
  results: Record<string, unknown>;
}) {
  const removePlainPage = opts.parts.has('delivery') ? writePlainPage(opts.dist) : () => {};
  const srv = await startTestServer({ clientDir: opts.dist });
  const browser = await chromium.launch({
    executablePath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    if (opts.parts.has('delivery')) await deliveryPart(browser, srv, opts.checks, opts.results, opts.dist);
    if (opts.parts.has('latency')) await latencyPart(browser, srv, opts.checks, opts.results);
    if (opts.parts.has('scroll')) await scrollPart(browser, srv, opts.checks, opts.results);
  } finally {
    await browser.close();
    await srv.close();
    removePlainPage();
  }
}
