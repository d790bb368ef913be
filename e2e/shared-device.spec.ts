// A shared computer: what the browser kept for A is gone once A signs out — the offline store (IndexedDB), where a
// secret chat's history import stands (IndexedDB `beseda-history-import`), the unsent messages (localStorage), and
// any API answer in the HTTP cache (every /api answer is no-store) — even when the sign-out happens offline;
// then, back online, the sign-in ends on the server too. Server side: tests/server/hardening-headers.test.ts,
// ended-sessions.test.ts.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { sendText } from './users';

/** Everything this origin keeps in localStorage that names the user. */
const storedFor = (page: Page, userId: string) =>
  page.evaluate((id) => Object.keys(localStorage).filter((k) => k.includes(id) || k === 'beseda.session'), userId);

/** What the HTTP cache answers for a URL without going to the network ('none' when it holds nothing). */
const cached = (page: Page, url: string) =>
  page.evaluate(
    (u) =>
      fetch(u, { cache: 'only-if-cached', mode: 'same-origin' }).then(
        (r) => `${r.status}`,
        () => 'none',
      ),
    url,
  );

/** Records kept in IndexedDB for the user: lists and conversations. */
const kept = (page: Page, userId: string) =>
  page.evaluate(
    (id) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('beseda-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('lists')) return resolve(0);
          const tx = db.transaction(['lists', 'messages']);
          const lists = tx.objectStore('lists').count(id);
          const messages = tx.objectStore('messages').index('byUser').count(id);
          tx.oncomplete = () => resolve(lists.result + messages.result);
        };
      }),
    userId,
  );

/** Where A's secret imports stand (IndexedDB `beseda-history-import`): rows keyed `${userId}|…`. */
const positionsDb = (page: Page, userId: string, write: boolean) =>
  page.evaluate(
    ({ id, write }) =>
      new Promise<number>((resolve, reject) => {
        // The app's own schema (src/services/historyImport/positions.ts): version 1, one store keyed by `key`.
        const open = indexedDB.open('beseda-history-import', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('positions', { keyPath: 'key' });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('positions', write ? 'readwrite' : 'readonly');
          if (write) tx.objectStore('positions').put({ key: `${id}|chat|export`, done: 400, total: 1000 });
          const count = tx.objectStore('positions').count(IDBKeyRange.bound(`${id}|`, `${id}|\uffff`));
          tx.oncomplete = () => {
            db.close();
            resolve(count.result);
          };
        };
      }),
    { id: userId, write },
  );

test('signing out offline leaves nothing of A, and ends the sign-in on the server once back online', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  await sendText(srv.url, b, conversationId, 'Секрет для Анны');
  const { context, page } = await openSignedIn(a);
  // The service worker holds the app's chunks, so the sign-in page still opens offline.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.getByTestId('chat-tile').first().click();
  await expect(page.getByTestId('message').filter({ hasText: 'Секрет для Анны' })).toBeVisible();
  await expect.poll(() => kept(page, a.user.id)).toBeGreaterThan(0);
  // A secret chat's import stopped midway keeps its position (written here as the import would write it).
  expect(await positionsDb(page, a.user.id, true)).toBe(1);

  // Offline, a message waits in the outbox, kept in localStorage for a reload.
  await context.setOffline(true);
  const box = page.getByRole('textbox', { name: 'Сообщение' });
  await box.fill('Неотправленное письмо');
  await box.press('Enter');
  await expect.poll(() => storedFor(page, a.user.id)).toContain(`beseda.outbox.${a.user.id}`);
  // A draft is kept for a reload too.
  await box.fill('Черновик, который никто не должен увидеть');
  await expect.poll(() => storedFor(page, a.user.id)).toContain(`beseda.drafts.${a.user.id}`);

  await page.getByRole('button', { name: 'Выйти' }).click();

  await page.getByRole('alertdialog', { name: 'Выйти из аккаунта?' }).getByRole('button', { name: 'Выйти' }).click();
  await expect(page.getByRole('button', { name: 'Войти', exact: true })).toBeVisible();
  await expect.poll(() => storedFor(page, a.user.id)).toEqual([]);
  await expect.poll(() => kept(page, a.user.id)).toBe(0);
  await expect.poll(() => positionsDb(page, a.user.id, false)).toBe(0);

  // The server has not heard of the sign-out yet: only the token to end it waits, and goes once online.
  const status = () =>
    fetch(`${srv.url}/api/conversations`, { headers: { authorization: `Bearer ${a.accessToken}` } }).then(
      (r) => r.status,
    );
  expect(await status()).toBe(200);
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(['beseda.pendingSignOut']);
  await context.setOffline(false);
  await expect.poll(status, { timeout: 20_000 }).toBe(401);
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage))).toEqual([]);
  for (const url of ['/api/conversations', '/api/contacts', `/api/conversations/${conversationId}/messages`]) {
    expect(await cached(page, url), url).toBe('none');
  }
});
