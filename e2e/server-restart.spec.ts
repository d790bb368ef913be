// A server restart signs nobody out (docs/behaviour.md §7 Token refresh): the server is stopped as systemd restarts
// it (SIGTERM, a graceful close) and later killed outright (SIGKILL), each time coming back on the same port and data
// with its clock past the access tokens' lifetime; and it stays down for a whole minute. Анна is signed in on two
// browsers (the first with two tabs, which share one sign-in and so one refresh token; the second approved as her
// other secret-chat device by the first), Борис on one, and the two have a secret chat. Every page says it is
// reconnecting throughout, keeps its session, its offline store and its secret-chat keys, and is back — refreshed,
// live, delivering — within seconds of the server: the secret chat's earlier messages still read on every device
// and a new one decrypts on each of them (and again after a reload, from the sealed store).
// A refresh the server refuses (401) still signs out and wipes. Server side: tests/server/auth.test.ts.
import type { BrowserContext, BrowserContextOptions, Page } from '@playwright/test';
import { type E2EUser, expect, type RestartableServer, test } from './fixtures';
import { becomeDevice, signInAgain, startSecretChat } from './secret-helpers';
import { apiCall, friendsWithConversation, SESSION_KEY, signInContext } from './users';

const MINUTE = 60_000;
/** Past the access tokens' 15 minutes: what the pages hold has expired when the server comes back. */
const TOKEN_LIFETIME_PASSED = 16 * MINUTE;

const latency = (page: Page) => page.getByTestId('latency');
const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');
const messageWith = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Сообщение' });
const bubble = (page: Page, text: string) => page.locator('.msg-text').filter({ hasText: text });
const RECONNECTING = 'переподключение…';
/** What a secret message shows until it is decrypted. */
const READING = 'Расшифровывается…';
/** The outage of the minute-long test, held in real time, and how often the pages are looked at meanwhile. */
const OUTAGE_MS = 60_000;
const OUTAGE_SAMPLE_MS = 5_000;

/** What the page keeps: its localStorage keys, the stored session, and the records of every IndexedDB store. */
function kept(page: Page) {
  return page.evaluate(async () => {
    const records: Record<string, number> = {};
    for (const info of await indexedDB.databases()) {
      const name = info.name;
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        records[`${name}/${store}`] = await new Promise<number>((resolve, reject) => {
          const count = db.transaction(store).objectStore(store).count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => reject(count.error);
        });
      }
      db.close();
    }
    const session = JSON.parse(localStorage.getItem('beseda.session') ?? 'null') as {
      user: { id: string };
      refreshToken: string;
    } | null;
    return { keys: Object.keys(localStorage).sort(), session, records };
  });
}
type Kept = Awaited<ReturnType<typeof kept>>;

/** Nothing of `before` is gone: every key and every store is there with at least as many records. */
function expectNothingLost(after: Kept, before: Kept, who: string) {
  expect(after.session?.user.id, `${who}: still signed in`).toBe(before.session?.user.id);
  expect(after.keys, `${who}: localStorage`).toEqual(expect.arrayContaining(before.keys));
  for (const [store, count] of Object.entries(before.records)) {
    expect(after.records[store] ?? -1, `${who}: ${store}`).toBeGreaterThanOrEqual(count);
  }
}

type NewContext = (options?: BrowserContextOptions) => Promise<BrowserContext>;

/** A signed-in browser context, as `u`. */
async function signedIn(srv: RestartableServer, newContext: NewContext, u: E2EUser) {
  const context = await newContext({ baseURL: srv.url });
  await signInContext(context, u);
  return context;
}

/** A tab of the browser, with the conversation open and the socket live. */
async function openPage(srv: RestartableServer, context: BrowserContext, conversationId: string) {
  const page = await context.newPage();
  await page.goto(`${srv.url}/`);
  await page.locator(`[data-conversation-id="${conversationId}"]`).click();
  await expect(input(page)).toBeVisible();
  await expect(latency(page)).toHaveClass(/ping-live/, { timeout: 30_000 });
  return page;
}

/** The server comes back; resolves the milliseconds until every page is live again. */
async function comeBack(srv: RestartableServer, aheadMs: number, pages: Page[]): Promise<number> {
  await srv.start(aheadMs);
  const back = Date.now();
  await Promise.all(pages.map((p) => expect(latency(p)).toHaveClass(/ping-live/, { timeout: 45_000 })));
  return Date.now() - back;
}

/**
 * The conversation opened from its tile, its composer shown. A tile can move as a message arrives (the list is by
 * recency) between finding it and the click landing, so the click is repeated until its address is the page's.
 */
async function show(page: Page, conversationId: string) {
  await expect(async () => {
    await page.locator(`[data-conversation-id="${conversationId}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/c/${conversationId}$`), { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(composer(page)).toBeVisible();
}

/**
 * Анна on two browsers (two tabs of the first, and a second browser her first approves as her other secret-chat
 * device), Борис on one; a secret chat between them with two messages every device has read. Returns the pages and
 * what each keeps.
 */
async function scene(srv: RestartableServer, newContext: NewContext) {
  const { a, b, conversationId } = await friendsWithConversation(srv.url);
  const annasBrowser = await signedIn(srv, newContext, a);
  const pages = {
    anna: await openPage(srv, annasBrowser, conversationId),
    annasOtherTab: await openPage(srv, annasBrowser, conversationId),
    annasLaptop: await openPage(srv, await signedIn(srv, newContext, await signInAgain(srv.url, a)), conversationId),
    boris: await openPage(srv, await signedIn(srv, newContext, b), conversationId),
  };
  // Secret-chat devices: keys a lost session would take with it for good.
  await becomeDevice(pages.boris);
  await becomeDevice(pages.annasLaptop, pages.anna);
  const secretId = await startSecretChat(pages.anna, /Борис/);
  const earlier = ['секрет до перезапуска', 'и ответ Бориса до него'];
  await composer(pages.anna).fill(earlier[0] as string);
  await composer(pages.anna).press('Enter');
  await show(pages.boris, secretId);
  await expect(bubble(pages.boris, earlier[0] as string)).toBeVisible({ timeout: 30_000 });
  await composer(pages.boris).fill(earlier[1] as string);
  await composer(pages.boris).press('Enter');
  for (const page of Object.values(pages)) {
    await show(page, secretId);
    for (const text of earlier) await expect(bubble(page, text)).toBeVisible({ timeout: 30_000 });
  }
  const before: Record<string, Kept> = {};
  for (const [who, page] of Object.entries(pages)) {
    await expect.poll(async () => (await kept(page)).records['beseda-offline/lists'] ?? 0).toBeGreaterThan(0);
    await expect.poll(async () => (await kept(page)).records['beseda-secret/devices'] ?? 0).toBeGreaterThan(0);
    before[who] = await kept(page);
  }
  return { pages, all: Object.values(pages), conversationId, secretId, earlier, before };
}
type Scene = Awaited<ReturnType<typeof scene>>;

/** Every page keeps what it kept before, its session refreshed (its access token had expired meanwhile). */
async function expectKeptAndRefreshed(s: Scene) {
  for (const [who, page] of Object.entries(s.pages)) {
    const after = await kept(page);
    expectNothingLost(after, s.before[who] as Kept, who);
    expect(after.session?.refreshToken, `${who}: refreshed`).not.toBe(s.before[who]?.session?.refreshToken);
    s.before[who] = after;
  }
}

/**
 * Back from an outage: a message reaches the others in the ordinary conversation; in the secret chat every device
 * still reads the earlier messages, and a new one from `sender` decrypts on every device.
 */
async function expectDelivering(s: Scene, label: string, sender: Page) {
  const { pages } = s;
  await expect(pages.anna.getByRole('button', { name: 'Выйти' })).toBeVisible();
  const text = `После перезапуска ${label}`;
  for (const page of [pages.boris, pages.anna, pages.annasOtherTab]) await show(page, s.conversationId);
  await input(pages.boris).fill(text);
  await input(pages.boris).press('Enter');
  await expect(messageWith(pages.anna, text)).toHaveCount(1);
  await expect(messageWith(pages.annasOtherTab, text)).toHaveCount(1);

  for (const page of s.all) {
    await show(page, s.secretId);
    for (const old of s.earlier) await expect(bubble(page, old)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(READING)).toHaveCount(0, { timeout: 20_000 });
  }
  const secret = `секрет ${label}`;
  await composer(sender).fill(secret);
  await composer(sender).press('Enter');
  for (const page of s.all) await expect(bubble(page, secret)).toBeVisible({ timeout: 30_000 });
  for (const page of s.all) await expect(page.getByText(READING)).toHaveCount(0, { timeout: 20_000 });
  s.earlier.push(secret);
}

/** A reload reads the whole secret chat again from each device's sealed store: its keys are all there. */
async function expectReadAfterReload(s: Scene) {
  for (const page of [s.pages.annasLaptop, s.pages.boris]) {
    await page.reload();
    for (const text of s.earlier) await expect(bubble(page, text)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(READING)).toHaveCount(0, { timeout: 20_000 });
  }
}

test.describe('a server restart', () => {
  test.describe.configure({ timeout: 300_000 });

  // One scene through three outages: a graceful restart, a kill, and a minute down (the scene costs as much as a
  // restart; one set of browsers keeps the serial pass short).
  test('a graceful restart, a kill and a minute-long outage sign nobody out and wipe nothing', async ({
    restartableServer: srv,
    newContext,
  }) => {
    const s = await scene(srv, newContext);
    const { pages, all } = s;
    const rounds = [
      { how: 'graceful', label: 'SIGTERM', heldMs: 0, sender: pages.annasLaptop },
      { how: 'kill', label: 'SIGKILL', heldMs: 0, sender: pages.boris },
      { how: 'graceful', label: '60-s outage', heldMs: OUTAGE_MS, sender: pages.anna },
    ] as const;

    for (const [round, { how, label, heldMs, sender }] of rounds.entries()) {
      await srv.stop(how);
      const down = Date.now();
      // Every page says it is reconnecting, and keeps everything meanwhile.
      for (const page of all) await expect(latency(page)).toHaveText(RECONNECTING, { timeout: 30_000 });
      for (const [who, page] of Object.entries(pages)) expectNothingLost(await kept(page), s.before[who] as Kept, who);
      // A long outage: the server stays down for a minute of real time (the outage itself, not a wait for
      // anything); every few seconds, up to its last ones, every page still says it is reconnecting.
      while (Date.now() - down < heldMs - OUTAGE_SAMPLE_MS) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(OUTAGE_SAMPLE_MS, heldMs - (Date.now() - down))));
        for (const [who, page] of Object.entries(pages)) {
          await expect(latency(page), `${who} at ${Date.now() - down} ms`).toHaveText(RECONNECTING, { timeout: 1_000 });
        }
      }
      if (heldMs > 0) {
        for (const [who, page] of Object.entries(pages))
          expectNothingLost(await kept(page), s.before[who] as Kept, who);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, heldMs - (Date.now() - down))));
      }

      const ms = await comeBack(srv, (round + 1) * TOKEN_LIFETIME_PASSED, all);
      console.log(`server back → every page back to normal: ${ms} ms (${label}; down ${Date.now() - down - ms} ms)`);
      // Retries keep coming during the outage: the pages do not sit out a long pause once the server is back.
      expect(ms, 'back within seconds of the server').toBeLessThan(10_000);

      await expectKeptAndRefreshed(s);
      // Each round's new secret message from another device.
      await expectDelivering(s, String(round + 1), sender);
    }
    await expectReadAfterReload(s);
  });

  test('a refresh the server refuses (401) still signs out and wipes', async ({
    restartableServer: srv,
    newContext,
  }) => {
    const { a, b, conversationId } = await friendsWithConversation(srv.url);
    const anna = await openPage(srv, await signedIn(srv, newContext, a), conversationId);
    const boris = await openPage(srv, await signedIn(srv, newContext, b), conversationId);
    await expect.poll(async () => (await kept(anna)).records['beseda-offline/lists'] ?? 0).toBeGreaterThan(0);
    // Someone else uses Анна's refresh token first: when her page presents it, it is a reused token, refused
    // with its whole sign-in.
    const stolen = (await kept(anna)).session?.refreshToken;
    await apiCall(srv.url, 'POST', '/api/auth/refresh', { refreshToken: stolen });

    await srv.stop('graceful');
    await expect(latency(anna)).toHaveText(RECONNECTING, { timeout: 30_000 });
    await srv.start(TOKEN_LIFETIME_PASSED);

    await expect(anna).toHaveURL(`${srv.url}/auth`, { timeout: 45_000 });
    await expect(anna.getByRole('alert')).toHaveText('Сессия истекла, войдите снова');
    await expect
      .poll(async () => (await kept(anna)).keys.filter((k) => k === SESSION_KEY || k.includes(a.user.id)))
      .toEqual([]);
    const wiped = await kept(anna);
    expect(wiped.session).toBeNull();
    await expect
      .poll(async () => {
        const { records } = await kept(anna);
        return (records['beseda-offline/lists'] ?? 0) + (records['beseda-offline/messages'] ?? 0);
      })
      .toBe(0);
    // Борис was not refused: he is back as if nothing happened.
    await expect(latency(boris)).toHaveClass(/ping-live/, { timeout: 45_000 });
    expect((await kept(boris)).session?.user.id).toBe(b.user.id);
  });
});
