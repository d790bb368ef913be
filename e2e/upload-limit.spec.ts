// The upload limit known before the upload (docs/behaviour.md §10.1): the client reads it from GET /api/instance and
// refuses a larger file at once, with the server's own words, no request and no «Повторить»; a file the server
// refuses itself (413) shows the server's message, also without «Повторить»; a full disk (507) says so too, with
// «Повторить». The server here takes 1 MB.
import type { Page } from '@playwright/test';
import { STORAGE_FULL } from '../server/db/unavailable';
import { expect, test } from './fixtures';

test.use({ privateServerOptions: { uploadLimitBytes: 1024 * 1024 } });

const TOO_LARGE = 'Файл больше 1 МБ — такие файлы не отправляются';
/** One byte over the limit. */
const big = { name: 'отчёт.zip', mimeType: 'application/zip', buffer: Buffer.alloc(1024 * 1024 + 1, 7) };

async function openChat(page: Page, conversationId: string) {
  await page.locator(`[data-conversation-id="${conversationId}"]`).click();
  await expect(page.getByPlaceholder('Напишите сообщение...')).toBeVisible();
}

async function attach(page: Page) {
  await page.getByTestId('attach-input').setInputFiles(big);
  await page
    .getByRole('dialog', { name: /^Отправить/ })
    .getByRole('button', { name: 'Отправить' })
    .click();
}

/** Counts the page's upload requests. */
function countUploads(page: Page) {
  const seen = { uploads: 0 };
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/upload') seen.uploads += 1;
  });
  return seen;
}

test('a file over the limit is refused at once with the limit in words, without a request or «Повторить»', async ({
  friends: { a, conversationId },
  openSignedIn,
}) => {
  const A = await openSignedIn(a);
  const seen = countUploads(A.page);
  await openChat(A.page, conversationId);
  await attach(A.page);
  const refused = A.page.locator('[data-message-id^="tmp-"]');
  await expect(refused).toHaveAttribute('data-delivery', 'failed');
  await expect(refused.getByText(TOO_LARGE)).toBeVisible();
  await expect(refused.getByRole('button', { name: 'Удалить' })).toBeVisible();
  await expect(refused.getByRole('button', { name: 'Повторить' })).toHaveCount(0);
  expect(seen.uploads).toBe(0);
  await refused.getByRole('button', { name: 'Удалить' }).click();
  await expect(refused).toHaveCount(0);
  expect(seen.uploads).toBe(0);
});

test('a file the server refuses (413) shows the server’s message and no «Повторить»', async ({
  friends: { a, conversationId },
  openSignedIn,
}) => {
  const A = await openSignedIn(a);
  // The limit cannot be read: the file goes, and the server refuses it.
  await A.context.route('**/api/instance', (route) => route.abort('connectionreset'));
  await A.page.reload();
  const seen = countUploads(A.page);
  await openChat(A.page, conversationId);
  await attach(A.page);
  const refused = A.page.locator('[data-message-id^="tmp-"]');
  await expect(refused).toHaveAttribute('data-delivery', 'failed');
  await expect(refused.getByText(TOO_LARGE)).toBeVisible();
  await expect(refused.getByRole('button', { name: 'Повторить' })).toHaveCount(0);
  expect(seen.uploads).toBe(1);
});

test('a full disk (507) on an upload and on a text shows the server’s words with «Повторить», which sends them later', async ({
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  const A = await openSignedIn(a);
  const B = await openSignedIn(b);
  // The server's answer on a full disk (as tests/server/sqlite-storage.test.ts gets it from a filled file system).
  const full = { status: 507, json: { statusCode: 507, error: 'Insufficient Storage', message: STORAGE_FULL } };
  await A.page.route('**/api/upload', (route) => route.fulfill(full));
  await A.page.route('**/api/conversations/send', (route) => route.fulfill(full));
  await openChat(A.page, conversationId);
  await openChat(B.page, conversationId);

  await A.page
    .getByTestId('attach-input')
    .setInputFiles({ name: 'смета.txt', mimeType: 'text/plain', buffer: Buffer.from('12 000 ₽') });
  await A.page
    .getByRole('dialog', { name: /^Отправить/ })
    .getByRole('button', { name: 'Отправить' })
    .click();
  const file = A.page.locator('[data-message-id^="tmp-"]');
  await expect(file).toHaveAttribute('data-delivery', 'failed');
  await expect(file.getByText(STORAGE_FULL)).toBeVisible();
  await expect(file.getByText('Файл не загрузился')).toHaveCount(0);

  await A.page.getByPlaceholder('Напишите сообщение...').fill('Смета готова');
  await A.page.getByPlaceholder('Напишите сообщение...').press('Enter');
  const text = A.page.locator('[data-message-id^="tmp-"]').filter({ hasText: 'Смета готова' });
  await expect(text).toHaveAttribute('data-delivery', 'failed');
  await expect(text.getByText(STORAGE_FULL)).toBeVisible();

  // Room again: «Повторить» sends each.
  await A.page.unroute('**/api/upload');
  await A.page.unroute('**/api/conversations/send');
  await file.first().getByRole('button', { name: 'Повторить' }).click();
  await text.getByRole('button', { name: 'Повторить' }).click();
  await expect(B.page.getByRole('link', { name: 'Файл: смета.txt' })).toBeVisible();
  await expect(B.page.getByTestId('message').filter({ hasText: 'Смета готова' })).toBeVisible();
  await expect(A.page.locator('[data-message-id^="tmp-"]')).toHaveCount(0);
});
