// Search in secret chats, in real Chromium against the real server (docs/secret-chats.md, "Search"): the server
// cannot read a secret chat, so Борис's browser finds Анна's «Я видел собаку у дома» in its own encrypted index —
// by «собака», in the chats list's search next to a plaintext chat's match that the server found, and in the
// secret chat's own search bar. Борис's device reads each message as it arrives, so it finds one he never saw. It
// survives a reload, and a message deleted for everyone leaves it.
import type { Page } from '@playwright/test';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { apiCall, sendText } from './users';

const SECRET = 'Я видел собаку у дома';
const PLAIN = 'Собака спит на диване';
const LATER = 'Потом пришла кошка';

/** Opening «Новый секретный чат» once makes this browser a device (others can then add it). */
async function becomeDevice(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый секретный чат' });
  await expect(dialog.getByRole('button', { name: 'Создать' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Отмена' }).click();
}

test("Борис finds a secret chat's message by «собака» on his device, beside the server's plaintext match", async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  test.setTimeout(150_000);
  await sendText(srv.url, a, conversationId, PLAIN);
  const { page: pa } = await openSignedIn(a);
  const { page: first } = await openSignedIn(b);
  await becomeDevice(first);
  // Борис is away while Анна writes: his tab is closed (the browser, and so the device, stays).
  const home = first.url();
  const browserB = first.context();
  await first.close();

  await pa.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = pa.getByRole('dialog', { name: 'Новый секретный чат' });
  await tick(dialog.getByRole('checkbox', { name: /Борис/ }));
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(pa).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  const secretId = pa.url().split('/c/')[1] as string;
  const composer = pa.getByRole('textbox', { name: 'Сообщение' });
  await composer.fill(SECRET);
  await composer.press('Enter');
  await expect(pa.locator('.msg-text').filter({ hasText: SECRET })).toBeVisible();
  // The bubble shows at once; the text joins the device's index when the send completes (encrypted, stored, kept):
  // a search before that could not find it, here as in any messenger.
  await expect(pa.getByTestId('message').filter({ hasText: SECRET })).toHaveAttribute('data-delivery', /sent|read/, {
    timeout: 20_000,
  });

  // Анна's device indexed what it sent.
  const annaField = pa.getByRole('searchbox', { name: 'Поиск по сообщениям' });
  await annaField.fill('собака');
  await expect(pa.getByTestId('search-result').filter({ hasText: SECRET })).toHaveCount(1, { timeout: 15_000 });
  await annaField.fill('');

  // Another message after it: the tile's preview shows that one, and Борис never opens the chat before searching.
  await composer.fill(LATER);
  await composer.press('Enter');
  await expect(pa.locator('.msg-text').filter({ hasText: LATER })).toBeVisible();

  // Борис comes back: his device reads what arrived while he was away.
  const pb = await browserB.newPage();
  await pb.goto(home);
  const tile = pb.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' });
  await expect(tile).toContainText(LATER, { timeout: 30_000 });

  // The chats list's search: the secret chat's match (marked with the lock) and the server's plaintext one.
  const field = pb.getByRole('searchbox', { name: 'Поиск по сообщениям' });
  await field.fill('собака');
  const results = pb.getByTestId('search-result');
  await expect(results).toHaveCount(2, { timeout: 15_000 });
  const secretHit = results.filter({ hasText: SECRET });
  await expect(secretHit).toHaveCount(1);
  const secretMessageId = (await secretHit.getAttribute('data-message-id')) as string;
  await expect(secretHit.locator('mark')).toHaveText('собаку');
  await expect(secretHit).toContainText('Анна');
  await expect(results.filter({ hasText: PLAIN }).locator('mark')).toHaveText('Собака');
  // Newest first: the secret message was written after the plaintext one.
  await expect(results.first()).toContainText(SECRET);
  const groups = pb.locator('.search-group');
  await expect(groups.first()).toContainText('🔒');
  await expect(groups.filter({ hasText: '🔒' })).toHaveCount(1);

  // Choosing it opens the secret chat at that message.
  await secretHit.click();
  await expect(pb).toHaveURL(new RegExp(`/c/${secretId}$`));
  await expect(pb.locator('.msg-text').filter({ hasText: SECRET })).toBeVisible({ timeout: 20_000 });

  // The secret chat's own search bar searches this device's index.
  await field.fill('');
  await pb.getByRole('button', { name: 'Искать в беседе' }).click();
  const inChat = pb.getByRole('searchbox', { name: 'Поиск в беседе' });
  await inChat.fill('собака');
  const count = pb.getByTestId('conversation-search-count');
  await expect(count).toHaveText('0 из 1', { timeout: 15_000 });
  await pb.getByRole('button', { name: 'Предыдущее совпадение' }).click();
  await expect(count).toHaveText('1 из 1');
  await inChat.fill('пошел');
  await expect(count).toHaveText('Ничего не найдено');

  // The index outlives a reload (it is kept in IndexedDB, sealed).
  await pb.reload();
  await field.fill('собака');
  await expect(results).toHaveCount(2, { timeout: 15_000 });
  await expect(results.first()).toContainText(SECRET);

  // Анна deletes her message for everyone: it leaves Борис's index too.
  await apiCall(srv.url, 'POST', '/api/messages/delete', { messageId: secretMessageId }, a.accessToken);
  await expect(async () => {
    await field.fill('');
    await field.fill('собака');
    await expect(results).toHaveCount(1, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(results.first()).toContainText(PLAIN);
});
