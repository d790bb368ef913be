// «Избранное» and «Отправить позже» in the browser (docs/behaviour.md §10.31, §10.32): a note to oneself, a message
// scheduled from the send button's menu and seen in «Запланированные», sent by the server when its clock reaches
// the time (the spec moves the server's clock; the page's runs on as it is).
import type { Page } from '@playwright/test';
import { manualClock } from '../tests/server/manual-clock';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';

const clock = manualClock();
// Tokens that outlive the day the clock is moved by.
test.use({ privateServerOptions: { accessTokenTtlSec: 7 * 24 * 3600, clock } });

const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');
const bubble = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });

test('a note in «Избранное», a message scheduled there and sent when the server’s time comes', async ({
  createUser,
  openSignedIn,
}) => {
  const u = await createUser('Вера');
  const { page } = await openSignedIn(u, { path: '/' });
  const saved = page.getByTestId('saved-tile');
  await expect(saved).toContainText('Избранное');
  await saved.click();
  await input(page).fill('Заметка для себя');
  await input(page).press('Enter');
  await expect(bubble(page, 'Заметка для себя')).toBeVisible();

  await input(page).fill('Письмо из будущего');
  await page.getByRole('button', { name: 'Отправить', exact: true }).click({ button: 'right' });
  const dialog = page.getByRole('dialog', { name: 'Отправить позже' });
  await expect(dialog.getByRole('list', { name: 'Когда' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '«Отправить позже»');
  await dialog.getByRole('list', { name: 'Когда' }).getByRole('button').first().click();
  await dialog.getByRole('button', { name: 'Запланировать' }).click();
  await expect(dialog).toBeHidden();
  await expect(input(page)).toHaveValue('');

  await page.getByRole('button', { name: 'Запланированные' }).click();
  const list = page.getByRole('dialog', { name: 'Запланированные' });
  await expect(list.getByRole('list', { name: 'Запланированные' })).toContainText('Письмо из будущего');
  await expectNoSeriousA11yViolations(page, '«Запланированные»');
  await list.getByRole('button', { name: 'Закрыть окно' }).click();
  await expect(bubble(page, 'Письмо из будущего')).toHaveCount(0);

  // «Сегодня в …» is within the hour, «Завтра в 9:00» within a day and a half.
  clock.advance(36 * 3600_000);
  await expect(bubble(page, 'Письмо из будущего')).toBeVisible({ timeout: 10_000 });
});
