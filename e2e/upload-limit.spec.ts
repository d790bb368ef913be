// The upload limit known before the upload (docs/behaviour.md §10.1): the client reads it from GET /api/instance and
// refuses a larger file at once, with the server's own words, no request and no «Повторить»; a file the server
// refuses itself (413) shows the server's message, also without «Повторить». The server here takes 1 MB.
import type { Page } from '@playwright/test';
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
