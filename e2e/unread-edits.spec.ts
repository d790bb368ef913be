// «Пометить как непрочитанное» and «История изменений» in real Chromium against the real server: one person in two
// browser contexts (two devices) sees the mark come and go on both; an edited message's «изменено» opens its history.
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, markRead, sendText } from './users';

const tile = (page: Page, title: string) => page.getByTestId('chat-tile').filter({ hasText: title });

test('a chat marked unread on one device shows the dot on both until it is opened on either', async ({
  friends,
  srv,
  openSignedIn,
}) => {
  const { a: anna, b: boris, conversationId } = friends;
  await sendText(srv.url, boris, conversationId, 'привет');
  await markRead(srv.url, anna, conversationId);
  const { page: one } = await openSignedIn(anna);
  const { page: two } = await openSignedIn(anna);
  for (const page of [one, two]) await expect(tile(page, 'Борис')).toContainText('привет');

  await tile(one, 'Борис').click({ button: 'right' });
  await one
    .getByRole('menu', { name: 'Действия с чатом: Борис' })
    .getByRole('menuitem', { name: 'Пометить как непрочитанное' })
    .click();
  for (const page of [one, two]) await expect(tile(page, 'Борис').getByTestId('chat-tile-marked')).toBeVisible();

  // The other device's menu offers the way back.
  await tile(two, 'Борис').click({ button: 'right' });
  const menu = two.getByRole('menu', { name: 'Действия с чатом: Борис' });
  await expect(menu.getByRole('menuitem', { name: 'Пометить как прочитанное' })).toBeVisible();
  await two.keyboard.press('Escape');

  // Opening it on the second device takes the dot off on both.
  await tile(two, 'Борис').click();
  await expect(two.getByText('привет').last()).toBeVisible();
  for (const page of [one, two]) await expect(tile(page, 'Борис').getByTestId('chat-tile-marked')).toHaveCount(0);
});

test('«изменено» opens «История изменений», newest first, and follows a new edit', async ({
  friends,
  srv,
  openSignedIn,
}) => {
  const { a: anna, b: boris, conversationId } = friends;
  const sent = await sendText(srv.url, anna, conversationId, 'первая версия');
  const edit = (content: string) =>
    apiCall(srv.url, 'POST', '/api/messages/edit', { messageId: sent.id, content }, anna.accessToken);
  await edit('вторая версия');
  const { page } = await openSignedIn(boris);
  await tile(page, 'Анна').click();
  await expect(page.getByText('вторая версия')).toBeVisible();
  await page.getByTestId('edited-mark').click();
  const dialog = page.getByRole('dialog', { name: 'История изменений' });
  const versions = dialog.getByTestId('edit-version');
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toContainText('вторая версия');
  await expect(versions.nth(0)).toContainText('текущая версия');
  await expect(versions.nth(1)).toContainText('первая версия');
  await expectNoSeriousA11yViolations(page, '«История изменений»');

  await edit('третья версия');
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText('третья версия');
  await expect(versions.nth(1)).toContainText('вторая версия');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
