// Search that narrows and «Перейти к дате», in real Chromium against the real server (docs/behaviour.md §10.45): B
// types `от:Анна поход` and finds Anna's «Поход в субботу» but not his own «Поход отменяется», and with the words
// erased the chip alone lists Anna's messages; then, in a chat whose
// first message is 150 messages back, the header's «Перейти к дате» opens the history at today's first message.
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { markRead, sendText } from './users';

test('a search narrowed to one sender, and «Перейти к дате» from the header', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  test.setTimeout(120_000);
  const first = await sendText(srv.url, a, conversationId, 'Поход в субботу');
  await sendText(srv.url, b, conversationId, 'Поход отменяется');
  for (let i = 1; i <= 150; i++) await sendText(srv.url, i % 2 ? b : a, conversationId, `Сообщение ${i} про погоду`);
  // Read up to the end: the chat opens at its newest message, not at a first unread one.
  await markRead(srv.url, b, conversationId);
  const { page } = await openSignedIn(b);
  await expect(page.locator(`[data-conversation-id="${conversationId}"]`)).toBeVisible();

  await page.keyboard.press('/');
  const field = page.getByRole('searchbox', { name: 'Поиск по сообщениям' });
  await expect(field).toBeFocused();
  await field.pressSequentially('поход');
  const results = page.getByTestId('search-result');
  await expect(results).toHaveCount(2, { timeout: 15_000 });
  // `от:Анна ` sets the chip and leaves the words; only Anna's message stays.
  await field.fill('');
  await field.pressSequentially('от:Анна поход');
  await expect(page.getByTestId('search-chip-from')).toHaveText('От: Анна', { timeout: 15_000 });
  await expect(field).toHaveValue('поход');
  await expect(results).toHaveCount(1);
  await expect(results.first()).toContainText('Поход в субботу');
  await expectNoSeriousA11yViolations(page, 'search narrowed by a sender');
  // The words erased, the chip alone lists Anna's messages, newest first, and none of B's.
  await field.fill('');
  await expect(results.first()).toContainText('Сообщение 150 про погоду', { timeout: 15_000 });
  await expect(results.filter({ hasText: 'Поход отменяется' })).toHaveCount(0);
  await field.pressSequentially('поход');
  await expect(results).toHaveCount(1);
  await page.getByRole('button', { name: 'Убрать фильтр «От»' }).click();
  await expect(results).toHaveCount(2);
  await field.fill('');
  await field.press('Escape');

  // The chat opens at its newest messages; today's first is far above, out of sight.
  await page.locator(`[data-conversation-id="${conversationId}"]`).first().click();
  await expect(page.getByTestId('message').filter({ hasText: 'Сообщение 150 про погоду' })).toBeVisible();
  await expect(page.locator(`[data-message-id="${first.id}"]`)).not.toBeInViewport();
  await page.getByRole('button', { name: 'Перейти к дате' }).first().click();
  const day = page.getByTestId('conversation-date');
  await expect(day).toBeFocused();
  const today = await page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
  await day.fill(today);
  await expect(page.locator(`[data-message-id="${first.id}"]`)).toBeInViewport({ timeout: 20_000 });
});
