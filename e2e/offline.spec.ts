// Offline reading (src/services/session/offline-cache.ts, src/machines/session/offlineStore, src/sw/service-worker.ts): after one
// visit, a reload with the network off shows the kept list and conversation under the banner, read-only; signing
// out deletes what was kept.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, sendText } from './users';

/** Records kept for the user in IndexedDB: [lists, conversations with messages]. */
const kept = (page: Page, userId: string) =>
  page.evaluate(
    (id) =>
      new Promise<[number, number]>((resolve, reject) => {
        const open = indexedDB.open('beseda-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('lists')) return resolve([0, 0]);
          const tx = db.transaction(['lists', 'messages']);
          const lists = tx.objectStore('lists').count(id);
          const messages = tx.objectStore('messages').index('byUser').count(id);
          tx.oncomplete = () => resolve([lists.result, messages.result]);
        };
      }),
    userId,
  );

/** The texts of the messages kept for a conversation. */
const keptTexts = (page: Page, userId: string, conversationId: string) =>
  page.evaluate(
    ([id, conv]) =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('beseda-offline');
        open.onsuccess = () => {
          const get = open.result.transaction('messages').objectStore('messages').get([id, conv]);
          get.onsuccess = () => resolve((get.result?.messages ?? []).map((m: { content: string }) => m.content));
        };
      }),
    [userId, conversationId] as const,
  );

test('a reload with the network off shows the kept list and conversation, read-only, under the banner', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  for (let i = 1; i <= 5; i++) await sendText(srv.url, b, conversationId, `Сохранённое сообщение ${i}`);
  const { context, page } = await openSignedIn(a);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.getByTestId('chat-tile').first().click();
  await expect(page.getByTestId('message').filter({ hasText: 'Сохранённое сообщение 5' })).toBeVisible();
  await expect.poll(() => kept(page, a.user.id)).toEqual([1, 1]);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toHaveText('Нет соединения — показаны сохранённые сообщения');
  await expect(page.getByTestId('chat-tile')).toHaveCount(1);
  await expect(page.getByTestId('chat-tile')).toContainText('Борис');
  await page.getByTestId('chat-tile').click();
  await expect(page.getByTestId('message')).toHaveCount(5);
  await expect(page.getByRole('textbox', { name: 'Сообщение' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Отправить' })).toBeDisabled();

  // Back online: the next list answer from the server ends read-only mode.
  await context.setOffline(false);
  await sendText(srv.url, b, conversationId, 'Снова в сети');
  await expect(page.getByTestId('offline-banner')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByRole('textbox', { name: 'Сообщение' })).toBeEnabled();

  // Signing out deletes what was kept for the user.
  await page.getByRole('button', { name: 'Выйти' }).click();
  await page.getByRole('alertdialog', { name: 'Выйти из аккаунта?' }).getByRole('button', { name: 'Выйти' }).click();
  await expect.poll(() => kept(page, a.user.id)).toEqual([0, 0]);
});

test('a message its sender deletes leaves the other device’s store: an offline reload does not show it', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  await sendText(srv.url, b, conversationId, 'Останется');
  const gone = await sendText(srv.url, b, conversationId, 'Удалённое сообщение');
  const { context, page } = await openSignedIn(a);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.getByTestId('chat-tile').first().click();
  await expect(page.getByTestId('message').filter({ hasText: 'Удалённое сообщение' })).toBeVisible();
  await expect.poll(() => kept(page, a.user.id)).toEqual([1, 1]);

  // Deleted while A looks elsewhere in the app: the conversation is not fetched again, only the server's event
  // reaches the page.
  await page.getByRole('link', { name: 'Настройки' }).click();
  await expect(page.getByRole('heading', { name: 'Настройки' })).toBeVisible();
  await apiCall(srv.url, 'POST', '/api/messages/delete', { messageId: gone.id }, b.accessToken);
  await expect.poll(() => keptTexts(page, a.user.id, conversationId)).toEqual(['Останется']);

  await context.setOffline(true);
  await page.goto(srv.url);
  await page.getByTestId('chat-tile').first().click();
  await expect(page.getByTestId('message').filter({ hasText: 'Останется' })).toBeVisible();
  await expect(page.getByTestId('message').filter({ hasText: 'Удалённое сообщение' })).toHaveCount(0);
});

test('a message deleted while the other device was closed leaves its store when it comes back online', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  await sendText(srv.url, b, conversationId, 'Останется');
  const gone = await sendText(srv.url, b, conversationId, 'Удалённое, пока вкладка закрыта');
  const { context, page } = await openSignedIn(a);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.getByTestId('chat-tile').first().click();
  await expect(page.getByTestId('message').filter({ hasText: 'Удалённое, пока вкладка закрыта' })).toBeVisible();
  await expect
    .poll(() => keptTexts(page, a.user.id, conversationId))
    .toEqual(['Останется', 'Удалённое, пока вкладка закрыта']);
  await page.close();

  // No page of A is open to hear it.
  await apiCall(srv.url, 'POST', '/api/messages/delete', { messageId: gone.id }, b.accessToken);

  // A opens the app online and stays on the list: the conversation is not fetched, the catch-up removes it.
  const back = await context.newPage();
  await back.goto(srv.url);
  await expect(back.getByTestId('chat-tile')).toHaveCount(1);
  await expect.poll(() => keptTexts(back, a.user.id, conversationId)).toEqual(['Останется']);

  await context.setOffline(true);
  await back.reload();
  await back.getByTestId('chat-tile').first().click();
  await expect(back.getByTestId('message').filter({ hasText: 'Останется' })).toBeVisible();
  await expect(back.getByTestId('message').filter({ hasText: 'Удалённое, пока вкладка закрыта' })).toHaveCount(0);
});
