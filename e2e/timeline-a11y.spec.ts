// The timeline for screen readers and the keyboard in real Chromium (docs/behaviour.md §10.48, docs/accessibility.md):
// each message an article named from its parts, ↑/↓/Home/End between messages, Enter for the actions and Escape back,
// and a message arriving from the other side said once in the polite region.
import { expect, test } from './fixtures';
import { markRead, sendText } from './users';

test('messages are read as one item each, moved between with the arrow keys, and an arrival is announced', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  for (const text of ['Первое', 'Второе', 'Третье']) await sendText(srv.url, b, conversationId, text);
  await markRead(srv.url, a, conversationId);
  const A = await openSignedIn(a);
  await A.page.locator(`[data-conversation-id="${conversationId}"]`).click();
  const log = A.page.getByRole('log', { name: 'Сообщения' });
  await expect(log).toHaveAttribute('aria-live', 'off');
  const article = (text: string) => log.getByRole('article', { name: new RegExp(`${text}\\.? \\d\\d:\\d\\d$`) });
  await expect(article('Третье')).toBeVisible();

  // Into the history (focus arriving from outside, as Tab brings it) lands on the newest message; the keys move
  // from there.
  await log.evaluate((el) => (el as HTMLElement).focus());
  await expect(article('Третье')).toBeFocused();
  await A.page.keyboard.press('ArrowUp');
  await expect(article('Второе')).toBeFocused();
  await A.page.keyboard.press('Home');
  await expect(article('Первое')).toBeFocused();
  await A.page.keyboard.press('ArrowDown');
  await expect(article('Второе')).toBeFocused();
  await A.page.keyboard.press('End');
  await expect(article('Третье')).toBeFocused();

  // Enter: the actions, the first focused; Escape: back on the message.
  await A.page.keyboard.press('Enter');
  await expect(A.page.getByRole('menuitem', { name: 'Цитировать' })).toBeFocused();
  await A.page.keyboard.press('Escape');
  await expect(A.page.getByRole('menu')).toHaveCount(0);
  await expect(article('Третье')).toBeFocused();

  // A message from the other side: said once, politely, with the sender's name.
  const polite = A.page.getByTestId('announcer-polite');
  await sendText(srv.url, b, conversationId, 'Как дела?');
  await expect(article('Как дела\\?')).toBeVisible();
  await expect(polite).toHaveText(`${b.displayName}: Как дела?`);
  await expect(polite.locator('p')).toHaveCount(1);
});
