// Secret chats reach every friend (docs/secret-chats.md "Reaching everyone"), in real Chromium against the real
// server: Борис has only signed in (he never opened «Новый секретный чат»), and Анна starts a secret chat with him
// that he reads; Глеб has never opened Беседа in a browser, so Анна's chat with him says so, and what she writes
// before he signs in reaches him, in order and once, after he does.
import type { Page } from '@playwright/test';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { open } from './secret-helpers';
import { createUser, makeFriends } from './users';

test.afterEach(async ({ browser }) => {
  for (const c of browser.contexts()) await c.close().catch(() => {});
});

const bubble = (page: Page, text: string) => page.locator('.msg-text').filter({ hasText: text });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Сообщение' });

async function startSecretChat(page: Page, withWhom: string): Promise<void> {
  await page.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый секретный чат' });
  await tick(dialog.getByRole('checkbox', { name: new RegExp(withWhom) }));
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/, { timeout: 20_000 });
}

async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(bubble(page, text)).toBeVisible({ timeout: 20_000 });
}

test('a secret chat with a friend who only signed in, and with one who never opened Беседа in a browser', async ({
  srv,
  browser,
}) => {
  test.setTimeout(150_000);
  const anna = await createUser(srv.url, 'Анна', 'anna');
  const boris = await createUser(srv.url, 'Борис', 'boris');
  const gleb = await createUser(srv.url, 'Глеб', 'gleb');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, gleb);
  const pa = await open(browser, srv, anna);
  const pb = await open(browser, srv, boris);
  // Борис's browser became a device in the background: nothing but signing in.
  await expect
    .poll(
      async () =>
        (
          await srv.server.ctx.db
            .selectFrom('secret_devices')
            .select('id')
            .where('user_id', '=', boris.user.id)
            .execute()
        ).length,
      { timeout: 30_000 },
    )
    .toBe(1);

  await startSecretChat(pa, 'Борис');
  await send(pa, 'Борис, это секрет');
  const tile = pb.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' });
  await tile.click();
  await expect(bubble(pb, 'Борис, это секрет')).toBeVisible({ timeout: 20_000 });

  // Глеб has no device: the chat is made anyway and says why he does not read it yet.
  await pa.getByTestId('chat-tile').filter({ hasText: 'Борис' }).first().waitFor();
  await startSecretChat(pa, 'Глеб');
  const notice = 'Глеб ещё не открывал Беседу в браузере — он получит сообщения, когда войдёт';
  await expect(pa.getByText(notice)).toBeVisible({ timeout: 20_000 });
  await send(pa, 'первое для Глеба');
  await send(pa, 'второе для Глеба');

  // He signs in on a browser: Анна's device adds it and sends again what waited for it.
  const pg = await open(browser, srv, gleb);
  await expect(pa.getByText(notice)).toHaveCount(0, { timeout: 30_000 });
  await pg.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
  for (const text of ['первое для Глеба', 'второе для Глеба'])
    await expect(bubble(pg, text)).toHaveCount(1, { timeout: 30_000 });
  const texts = await pg.locator('.msg-text').allInnerTexts();
  expect(texts.filter((t) => t.includes('для Глеба'))).toEqual(['первое для Глеба', 'второе для Глеба']);
});
