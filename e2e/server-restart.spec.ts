// A server restart signs nobody out (docs/behaviour.md §7 Token refresh): the server is stopped as systemd restarts
// it (SIGTERM, a graceful close) and later killed outright (SIGKILL), each time coming back on the same port and data
// with its clock past the access tokens' lifetime. Every page — two tabs of one browser, which share one sign-in and
// so one refresh token, and another person's — says it is reconnecting meanwhile, keeps its session, its offline
// store and its secret-chat keys, and is back — refreshed, live, delivering — once the server is.
// A refresh the server refuses (401) still signs out and wipes. Server side: tests/server/auth.test.ts.
import type { BrowserContext, BrowserContextOptions, Page } from '@playwright/test';
import { type E2EUser, expect, type RestartableServer, test } from './fixtures';
import { becomeDevice } from './secret-helpers';
import { apiCall, friendsWithConversation, SESSION_KEY, signInContext } from './users';

const MINUTE = 60_000;
/** Past the access tokens' 15 minutes: what the pages hold has expired when the server comes back. */
const TOKEN_LIFETIME_PASSED = 16 * MINUTE;

const latency = (page: Page) => page.getByTestId('latency');
const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');
const messageWith = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });

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

test.describe('a server restart', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a graceful restart and a kill sign nobody out and wipe nothing', async ({
    restartableServer: srv,
    newContext,
  }) => {
    const { a, b, conversationId } = await friendsWithConversation(srv.url);
    const annasBrowser = await signedIn(srv, newContext, a);
    const pages = {
      anna: await openPage(srv, annasBrowser, conversationId),
      annasOtherTab: await openPage(srv, annasBrowser, conversationId),
      boris: await openPage(srv, await signedIn(srv, newContext, b), conversationId),
    };
    const all = Object.values(pages);
    // Борис's browser becomes a secret-chat device (his only one): keys a lost session would take with it for good.
    await becomeDevice(pages.boris);
    await expect.poll(async () => (await kept(pages.boris)).records['beseda-secret/devices'] ?? 0).toBeGreaterThan(0);
    const before: Record<string, Kept> = {};
    for (const [who, page] of Object.entries(pages)) {
      await expect.poll(async () => (await kept(page)).records['beseda-offline/lists'] ?? 0).toBeGreaterThan(0);
      before[who] = await kept(page);
    }

    for (const [round, how] of (['graceful', 'kill'] as const).entries()) {
      await srv.stop(how);
      // Every page says it is reconnecting, and keeps everything meanwhile.
      for (const page of all) await expect(latency(page)).toHaveText('переподключение…', { timeout: 30_000 });
      for (const [who, page] of Object.entries(pages)) expectNothingLost(await kept(page), before[who], who);

      const ms = await comeBack(srv, (round + 1) * TOKEN_LIFETIME_PASSED, all);
      console.log(`server back → every page back to normal: ${ms} ms (${how === 'graceful' ? 'SIGTERM' : 'SIGKILL'})`);

      for (const [who, page] of Object.entries(pages)) {
        const after = await kept(page);
        expectNothingLost(after, before[who], who);
        // Its access token had expired: the page refreshed with the refresh token it kept.
        expect(after.session?.refreshToken, `${who}: refreshed`).not.toBe(before[who].session?.refreshToken);
        before[who] = after;
      }
      await expect(pages.anna.getByRole('button', { name: 'Выйти' })).toBeVisible();

      // A message sent now reaches the others.
      const text = `После перезапуска ${round + 1}`;
      await input(pages.boris).fill(text);
      await input(pages.boris).press('Enter');
      await expect(messageWith(pages.anna, text)).toHaveCount(1);
      await expect(messageWith(pages.annasOtherTab, text)).toHaveCount(1);
    }
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
    await expect(latency(anna)).toHaveText('переподключение…', { timeout: 30_000 });
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
