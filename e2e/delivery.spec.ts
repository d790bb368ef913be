// How the real build reaches the browser (server/http/client-static.ts): compressed, and cached so that a reload
// fetches no asset again; and the chats page does not wait for its own info before asking for the list.
import fs from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { test as base, type E2EUser, expect } from './fixtures';
import { friendsWithConversation, sendText, signInContext } from './users';

/** The test's browser context is signed in as Вика, who has one conversation (Глеб's message in it): one tile. */
const test = base.extend<{ a: E2EUser }>({
  a: async ({ srv }, use) => {
    const pair = await friendsWithConversation(srv.url, ['Вика', 'Глеб']);
    await sendText(srv.url, pair.b, pair.conversationId, 'Привет из теста доставки');
    await use(pair.a);
  },
  context: async ({ context, a }, use) => {
    await signInContext(context, a);
    await use(context);
  },
});

interface Seen {
  path: string;
  status: number;
  encoding: string | undefined;
  /** Answered by the browser's cache, without a request to the server. */
  fromCache: boolean;
}

/** Every response the page gets, with whether the HTTP cache answered it (Chromium's DevTools protocol). */
async function watchNetwork(page: Page): Promise<{ cdp: CDPSession; seen: () => Seen[] }> {
  const cdp = await page.context().newCDPSession(page);
  const seen = new Map<string, Seen>();
  // Chromium reports a cache hit before the response itself: remember the request.
  const cached = new Set<string>();
  cdp.on('Network.responseReceived', (e) => {
    const encoding = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
    seen.set(e.requestId, {
      path: new URL(e.response.url).pathname,
      status: e.response.status,
      encoding: encoding === undefined ? undefined : String(encoding),
      fromCache: cached.has(e.requestId) || Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache),
    });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    cached.add(e.requestId);
    const s = seen.get(e.requestId);
    if (s) s.fromCache = true;
  });
  await cdp.send('Network.enable');
  return { cdp, seen: () => [...seen.values()] };
}

test('the first load gets Brotli-compressed assets; a reload serves every asset from the browser cache', async ({
  srv,
  page,
}) => {
  const net = await watchNetwork(page);
  await page.goto(`${srv.url}/`);
  await expect(page.getByTestId('chat-tile')).toHaveCount(1);
  await page.waitForLoadState('networkidle'); // the chunks loaded on demand (the socket) too
  // The call overlay (and the conference loader it imports) and the conversation's views are preloaded once the
  // service worker has installed: its precache has put them in the HTTP cache by then, so they are not downloaded
  // twice (src/ui/shared/service-worker-settled.ts). The incoming-call dialog is in the first bundle.
  const preloads = () =>
    net.seen().filter((s) => /^\/assets\/(CallOverlay|LazyConference|ConversationPaneView)-[^/]*\.js$/.test(s.path));
  await expect.poll(() => preloads().length, { timeout: 35_000 }).toBe(3);
  expect(preloads().map((s) => [s.path, s.fromCache])).toEqual(preloads().map((s) => [s.path, true]));
  // What they import beyond the first bundle comes from the cache too.
  const cached = net.seen().filter((s) => s.path.startsWith('/assets/') && s.fromCache);

  const first = net.seen().filter((s) => s.path.startsWith('/assets/') && !cached.includes(s));
  const scripts = first.filter((s) => s.path.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(2);
  const clientDir = process.env.E2E_CLIENT_DIR ?? path.resolve('dist');
  for (const s of first) {
    expect(s.fromCache, s.path).toBe(false);
    expect(s.status, s.path).toBe(200);
    const file = path.join(clientDir, s.path);
    if (fs.existsSync(`${file}.br`)) expect(s.encoding, s.path).toBe('br');
    // The build keeps no copy where compressing would not make the file smaller: only a tiny one.
    else expect(fs.statSync(file).size, `${s.path} has no Brotli copy`).toBeLessThan(200);
  }
  expect(first.filter((s) => s.encoding === 'br').length).toBeGreaterThan(2);
  const before = new Set(first.map((s) => s.path));

  const mark = net.seen().length;
  await page.reload();
  await expect(page.getByTestId('chat-tile')).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  const again = net.seen().slice(mark);
  const assets = again.filter((s) => s.path.startsWith('/assets/') && before.has(s.path));
  // The page needs the same assets again, and the cache answers for all of them: no 200, no 304 from the server.
  expect(assets.length).toBeGreaterThanOrEqual(scripts.length);
  expect(assets.filter((s) => !s.fromCache).map((s) => `${s.status} ${s.path}`)).toEqual([]);
  // index.html itself is asked for again (no-cache), so a new build is picked up on the next visit.
  const html = again.find((s) => s.path === '/');
  expect(html?.fromCache).toBe(false);
  expect([200, 304]).toContain(html?.status);
});

test('the list is asked for without waiting for the own-info answer (no request waterfall)', async ({ srv, page }) => {
  let meAnswered = false;
  let listAskedWhileMePending = false;
  // Own info (GET /api/status/me) is held until the list is on screen: it must be asked for and drawn meanwhile.
  let releaseMe = () => {};
  const meHeld = new Promise<void>((r) => {
    releaseMe = r;
  });
  await page.route('**/api/status/me', async (route) => {
    await meHeld;
    await route.continue().catch(() => undefined);
    meAnswered = true;
  });
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/conversations' && !meAnswered) listAskedWhileMePending = true;
  });
  await page.goto(`${srv.url}/`);
  await expect(page.getByTestId('chat-tile')).toHaveCount(1);
  expect(listAskedWhileMePending).toBe(true);
  expect(meAnswered).toBe(false);
  releaseMe();
});

test('a signed-in load asks for the list while the bundle downloads, and the app takes that answer', async ({
  srv,
  page,
}) => {
  const html = await (await fetch(`${srv.url}/`)).text();
  const bundle = html.match(/<script type="module" crossorigin src="(\/assets\/index-[^"]+\.js)"/)?.[1];
  expect(bundle, 'the main bundle in index.html').toBeTruthy();
  // The early-requests module comes first in <head>, before the main bundle.
  expect(html.indexOf('/assets/early-requests-')).toBeGreaterThan(0);
  expect(html.indexOf('/assets/early-requests-')).toBeLessThan(html.indexOf(bundle as string));

  let bundleReleased = false;
  let listAskedBeforeBundle = false;
  let asked = 0;
  let firstListAsked = () => {};
  const listAsked = new Promise<void>((r) => {
    firstListAsked = r;
  });
  let releaseLater = () => {};
  const later = new Promise<void>((r) => {
    releaseLater = r;
  });
  // The bundle is held until the list has been asked for: only the early request can ask that soon.
  await page.route(`**${bundle}`, async (route) => {
    await listAsked;
    bundleReleased = true;
    await route.continue();
  });
  // Any request for the list after the first is held until the test ends: the list can only show from the early answer.
  await page.route('**/api/conversations', async (route) => {
    asked++;
    if (!bundleReleased) listAskedBeforeBundle = true;
    if (asked === 1) firstListAsked();
    else await later;
    await route.continue().catch(() => undefined);
  });
  await page.goto(`${srv.url}/`);
  await expect(page.getByTestId('chat-tile')).toHaveCount(1);
  expect(listAskedBeforeBundle).toBe(true);
  releaseLater();
});
