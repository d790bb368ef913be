// Details of the timeline and the first page in real Chromium against the real server: a tall picture kept to a
// phone's screen, a file with its size, one «Сегодня» at a time at the top of the history, the lightbox's «100 %»,
// and an empty server's first page saying the first account becomes the administrator. Each leaves a screenshot.
import type { Page, TestInfo } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { markRead, sendImages, sendText } from './users';

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function openChat(page: Page, conversationId: string) {
  await page.locator(`[data-conversation-id="${conversationId}"]`).click();
  await expect(page.getByPlaceholder('Напишите сообщение...')).toBeVisible();
}

const shot = (page: Page, info: TestInfo, name: string) => page.screenshot({ path: info.outputPath(`${name}.png`) });

test('a tall picture is at most 400 px high on a phone, its proportions kept; a file shows its size', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}, info) => {
  // A phone's screenshot: three times as tall as wide.
  const tall = await sharp({ create: { width: 600, height: 1800, channels: 3, background: '#2f8f5b' } })
    .png()
    .toBuffer();
  await sendImages(srv.url, b, conversationId, [{ bytes: tall, name: 'скриншот.png' }]);
  await markRead(srv.url, a, conversationId);
  const A = await openSignedIn(a, { contextOptions: phone });
  await openChat(A.page, conversationId);
  const image = A.page.getByTestId('message').locator('img[alt="скриншот.png"]');
  await expect(image).toBeVisible();
  await expect.poll(async () => (await image.boundingBox())?.height ?? 0).toBeGreaterThan(390);
  const box = await image.boundingBox();
  expect(box?.height ?? 0).toBeLessThanOrEqual(400.5);
  expect((box?.width ?? 0) / (box?.height ?? 1)).toBeCloseTo(1 / 3, 1);
  await shot(A.page, info, 'tall-image-on-phone');

  // 2,4 МБ: 2.4 × 1024 × 1024 bytes, sent from the page.
  await A.page.getByTestId('attach-input').setInputFiles({
    name: 'отчёт.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(Math.round(2.4 * 1024 * 1024), 1),
  });
  await A.page
    .getByRole('dialog', { name: /^Отправить/ })
    .getByRole('button', { name: 'Отправить' })
    .click();
  const file = A.page.getByRole('link', { name: /Файл: отчёт\.pdf/ });
  await expect(file).toContainText('2,4\u00a0МБ');
  await shot(A.page, info, 'file-with-size');
});

test('while the history’s own «Сегодня» is at the top, the sticky day line gives way to it', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}, info) => {
  for (let i = 1; i <= 30; i++) await sendText(srv.url, b, conversationId, `Сообщение ${i}`);
  await markRead(srv.url, a, conversationId);
  const A = await openSignedIn(a);
  await openChat(A.page, conversationId);
  await expect(A.page.getByTestId('message').filter({ hasText: 'Сообщение 30' })).toBeVisible();
  const scroller = A.page.locator('.msg-scroller');
  const sticky = A.page.getByTestId('sticky-day');
  const line = A.page.locator('.msg-day');
  // Up to the first message: the row's line is at the top, in the sticky line's place.
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(line).toBeVisible();
  await expect(sticky).toHaveCount(0);
  await shot(A.page, info, 'day-line-at-top');
  // Past it: now the sticky line says the day, alone.
  await scroller.evaluate((el) => el.scrollTo({ top: 300 }));
  await expect(sticky).toHaveText('Сегодня');
  await expect
    .poll(async () => {
      const own = await line.boundingBox();
      const top = await sticky.boundingBox();
      return own && top ? own.y + own.height <= top.y || own.y >= top.y + top.height : true;
    })
    .toBe(true);
  await shot(A.page, info, 'sticky-day');
});

test('the lightbox says «100 %» in one form, with a no-break space', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3b6cf0' } })
    .png()
    .toBuffer();
  await sendImages(srv.url, b, conversationId, [{ bytes: png, name: 'поле.png' }]);
  const A = await openSignedIn(a);
  await openChat(A.page, conversationId);
  await A.page.getByRole('button', { name: 'Открыть изображение поле.png' }).click();
  const dialog = A.page.getByTestId('lightbox');
  expect(await dialog.locator('.lightbox-reset').textContent()).toBe('100\u00a0%');
  expect(await dialog.getByRole('status').textContent()).toBe('100\u00a0%');
});

test.describe('an empty server', () => {
  test.use({ privateServerOptions: {} });

  test('its first page says the first account becomes the administrator; later ones do not', async ({
    srv,
    newContext,
    createUser,
  }, info) => {
    const context = await newContext({ baseURL: srv.url });
    const page = await context.newPage();
    await page.goto(`${srv.url}/auth`);
    const note = page.getByText('На сервере ещё нет аккаунтов');
    await expect(note).toBeVisible();
    await shot(page, info, 'empty-server-sign-in');
    await page.getByRole('link', { name: 'Зарегистрируйтесь' }).click();
    await expect(page.getByText('первый зарегистрированный станет администратором')).toBeVisible();
    await shot(page, info, 'empty-server-register');
    await createUser('Админ', 'admin');
    await page.goto(`${srv.url}/auth`);
    await expect(page.getByRole('heading', { name: 'С возвращением' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Вход' })).toBeVisible();
    await expect(note).toHaveCount(0);
  });
});
