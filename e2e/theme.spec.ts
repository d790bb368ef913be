// The dark theme in real Chromium: the system's setting from the first paint, «Тема» in Settings switching at once
// and surviving a reload, and axe finding no serious contrast (or other) violation in either theme.
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { sendText, signInContext } from './users';

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

/** What <html data-theme> said when the page first painted (recorded by an init script at the first frame). */
async function recordFirstFrame(page: Page) {
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      (window as unknown as { firstTheme: string | undefined }).firstTheme = document.documentElement.dataset.theme;
    });
  });
}

test('the system’s dark setting shows the dark theme from the first frame; axe passes on chats and settings', async ({
  srv,
  friends: { a, b, conversationId },
  newContext,
}) => {
  await sendText(srv.url, a, conversationId, 'Добрый вечер');
  const context = await newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 800 } });
  await signInContext(context, b);
  const page = await context.newPage();
  await recordFirstFrame(page);
  await page.goto(`${srv.url}/c/${conversationId}`);
  await expect(page.getByTestId('message').getByText('Добрый вечер')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { firstTheme?: string }).firstTheme)).toBe('dark');
  expect(await theme(page)).toBe('dark');
  expect(await background(page)).toBe('rgb(14, 22, 33)');
  await expectNoSeriousA11yViolations(page, 'dark chats page with a conversation open');
  await page.getByRole('link', { name: 'Настройки' }).click();
  await expect(page.getByRole('radio', { name: 'Системная' })).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'dark settings');
  // The system turns light: «Системная» follows at once.
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => theme(page)).toBe('light');
});

test('«Тёмная» in Settings switches at once and survives a reload; «Светлая» wins over a dark system', async ({
  srv,
  friends: { a, b, conversationId },
  newContext,
}) => {
  await sendText(srv.url, a, conversationId, 'Проверка темы');
  const context = await newContext({ colorScheme: 'light', viewport: { width: 390, height: 844 } });
  await signInContext(context, b);
  const page = await context.newPage();
  await page.goto(`${srv.url}/settings`);
  await tick(page.getByRole('radio', { name: 'Тёмная' }));
  await expect.poll(() => theme(page)).toBe('dark');
  await recordFirstFrame(page);
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { firstTheme?: string }).firstTheme)).toBe('dark');
  await expect(page.getByRole('radio', { name: 'Тёмная' })).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'dark settings on a phone');
  await page.goto(`${srv.url}/`);
  await page.locator(`[data-conversation-id="${conversationId}"]`).click();
  await expect(page.getByTestId('message').getByText('Проверка темы')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'dark conversation on a phone');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${srv.url}/settings`);
  await tick(page.getByRole('radio', { name: 'Светлая' }));
  await expect.poll(() => theme(page)).toBe('light');
  await page.reload();
  expect(await theme(page)).toBe('light');
  await expectNoSeriousA11yViolations(page, 'light settings on a dark system');
  // The choice is the device's: it stays after sign-out, and the sign-in page shows it too.
  await page.getByRole('button', { name: 'Выйти' }).click();
  await page.getByRole('alertdialog', { name: 'Выйти из аккаунта?' }).getByRole('button', { name: 'Выйти' }).click();
  await expect(page.getByRole('button', { name: 'Войти', exact: true })).toBeVisible();
  expect(await theme(page)).toBe('light');
});
