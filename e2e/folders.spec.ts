// Chat folders in the browser (docs/behaviour.md §10.47): a folder «Работа» with a group chat in it made in Settings,
// its tab above the chat list with the number of its unread chats, switching tabs, and the same folder showing live
// on another browser of the same person; axe over the settings' «Папки», its dialog and the tabs in both themes.
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, createGroup } from './users';

test('a folder made in Settings shows as a tab with its unread chats, on every browser of the person', async ({
  srv,
  friends: { a, b, conversationId: direct },
  openSignedIn,
}) => {
  const group = await createGroup(srv.url, b, [a], 'Работа');
  await apiCall(
    srv.url,
    'POST',
    '/api/conversations/send',
    { conversationId: group, type: 'TEXT', content: 'Совещание в 10' },
    b.accessToken,
  );
  // Another browser of hers, on the chat list: no folders yet, so no tabs.
  const other = await openSignedIn(a);
  await expect(other.page.locator(`[data-conversation-id="${group}"]`)).toBeVisible();
  await expect(other.page.getByRole('tablist', { name: 'Папки' })).toHaveCount(0);

  const { page } = await openSignedIn(a, { path: '/settings' });
  const section = page.getByRole('region', { name: 'Папки' });
  await expect(section.getByText('Папок пока нет')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'Настройки: «Папки»');
  await section.getByRole('button', { name: 'Создать папку' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новая папка' });
  // Neither chats nor rules: refused with the reason, the dialog stays.
  await dialog.getByLabel('Название').fill('Работа');
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Выберите чаты или хотя бы одно правило');
  await dialog.getByRole('checkbox', { name: 'Работа' }).check();
  await expectNoSeriousA11yViolations(page, '«Новая папка»');
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByTestId('folder-row')).toHaveCount(1);
  await expect(section.getByTestId('folder-row')).toContainText('Работа');

  // The other browser got it live: «Все чаты» first, then «Работа» with its one unread chat.
  const otherTabs = other.page.getByRole('tab');
  await expect(otherTabs).toHaveCount(2);
  await expect(otherTabs.nth(0)).toHaveText(/^Все чаты/);
  await expect(otherTabs.nth(1)).toHaveText('Работа1 непрочитанный чат');

  await page.goto('/');
  const tabs = page.getByRole('tablist', { name: 'Папки' });
  const all = tabs.getByRole('tab', { name: /^Все чаты/ });
  const work = tabs.getByRole('tab', { name: /^Работа/ });
  await expect(all).toHaveAttribute('aria-selected', 'true');
  await expect(work.getByTestId('folder-tab-count')).toHaveText('1 непрочитанный чат');
  await expect(page.locator(`[data-conversation-id="${direct}"]`)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'вкладки папок');

  await work.click();
  await expect(work).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator(`[data-conversation-id="${group}"]`)).toBeVisible();
  await expect(page.locator(`[data-conversation-id="${direct}"]`)).toHaveCount(0);
  // The chosen tab is this browser's own: the other one stays on «Все чаты».
  await expect(other.page.locator(`[data-conversation-id="${direct}"]`)).toBeVisible();
  await expect(otherTabs.nth(0)).toHaveAttribute('aria-selected', 'true');
  // Kept on this device across a reload.
  await page.reload();
  await expect(page.getByRole('tab', { name: /^Работа/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator(`[data-conversation-id="${direct}"]`)).toHaveCount(0);

  // Arrow keys move between the tabs.
  await page.getByRole('tab', { name: /^Работа/ }).press('ArrowLeft');
  await expect(page.getByRole('tab', { name: /^Все чаты/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: /^Все чаты/ })).toBeFocused();
  await expect(page.locator(`[data-conversation-id="${direct}"]`)).toBeVisible();
});
