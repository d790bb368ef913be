// Edits, reactions and deletions in a secret chat, in real Chromium against the real server (docs/secret-chats.md
// "Edits, reactions and deletions"): Анна edits her message and Борис sees the new text with «изменено»; Борис
// reacts and Анна sees it; after a reload both still show the edit and the reaction (kept in the sealed store); Анна
// deletes a message and it goes for Борис, with its plaintext gone from his browser's store. Last, with the server
// stopped, nothing under its data directory (the database, its WAL) holds the edited text or the emoji.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startTestServer } from '../tests/server/harness';
import { expect, test } from './fixtures';
import { becomeDevice, filesUnder, open, startSecretChat } from './secret-helpers';
import { createUser, makeFriends } from './users';

const ORIGINAL = 'встречаемся в пятницу';
const EDITED = 'встречаемся в субботу у фонтана';
const DOOMED = 'это сообщение будет удалено';
const EMOJI = '🙏';

test.afterEach(async ({ browser }) => {
  for (const c of browser.contexts()) await c.close().catch(() => {});
});

const message = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Сообщение' });

/** The message ids this browser keeps a plaintext of (the sealed store's keys are [user, chat, message]). */
function keptIds(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const req = indexedDB.open('beseda-secret');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const keys = req.result.transaction('plaintexts').objectStore('plaintexts').getAllKeys();
          keys.onsuccess = () => resolve((keys.result as string[][]).map((k) => k[2] as string));
          keys.onerror = () => reject(keys.error);
        };
      }),
  );
}

test('a secret chat: an edit, a reaction and a deletion reach the other device, and survive a reload', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const srv = await startTestServer({ clientDir: path.resolve(process.env.E2E_CLIENT_DIR ?? 'dist') });
  try {
    const anna = await createUser(srv.url, 'Анна', 'anna');
    const boris = await createUser(srv.url, 'Борис', 'boris');
    await makeFriends(srv.url, anna, boris);
    const a = await open(browser, srv, anna);
    const b = await open(browser, srv, boris);
    await becomeDevice(b);

    await startSecretChat(a, /Борис/);
    await composer(a).fill(ORIGINAL);
    await composer(a).press('Enter');
    await expect(message(a, ORIGINAL)).toBeVisible({ timeout: 20_000 });

    await b.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
    await expect(message(b, ORIGINAL)).toBeVisible({ timeout: 20_000 });

    // Not offered in a secret chat: forwarding and reporting. The menu is open first (its chunk may still be on its
    // way), so the absences are of an open menu's items and Escape reaches it; a menu left open would cover the message.
    await message(b, ORIGINAL).click({ button: 'right' });
    const menu = b.getByRole('menu', { name: 'Действия с сообщением' });
    await expect(menu.getByRole('menuitem', { name: 'Цитировать' })).toBeFocused();
    await expect(menu.getByRole('menuitem', { name: 'Переслать' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Пожаловаться' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Изменить' })).toHaveCount(0);
    await b.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);

    // Анна edits: Борис sees the new text with «изменено».
    await message(a, ORIGINAL).click({ button: 'right' });
    await a.getByRole('menuitem', { name: 'Изменить' }).click();
    await expect(a.getByTestId('edit-banner')).toContainText('Редактирование');
    await expect(composer(a)).toHaveValue(ORIGINAL);
    await composer(a).fill(EDITED);
    await composer(a).press('Enter');
    await expect(a.getByTestId('edit-banner')).toHaveCount(0);
    await expect(message(a, EDITED).getByTestId('edited-mark')).toBeVisible({ timeout: 20_000 });
    await expect(message(b, EDITED).getByTestId('edited-mark')).toHaveText(/изменено/, { timeout: 20_000 });
    await expect(message(b, ORIGINAL)).toHaveCount(0);
    // The edit is no message of its own: still one bubble each.
    await expect(a.getByTestId('message')).toHaveCount(1);
    await expect(b.getByTestId('message')).toHaveCount(1);

    // Борис reacts: Анна sees who, with the count.
    await message(b, EDITED).click({ button: 'right' });
    await b.getByRole('menuitem', { name: `Реакция ${EMOJI}` }).click();
    await expect(message(b, EDITED).getByRole('button', { name: `${EMOJI} 1: Борис (ваша реакция)` })).toBeVisible({
      timeout: 20_000,
    });
    const onA = message(a, EDITED)
      .getByTestId('reaction')
      .and(a.locator(`[data-emoji="${EMOJI}"]`));
    await expect(onA).toHaveAccessibleName(`${EMOJI} 1: Борис`, { timeout: 20_000 });

    // A reload reads both from the sealed store.
    for (const page of [a, b]) {
      await page.reload();
      await expect(message(page, EDITED).getByTestId('edited-mark')).toBeVisible({ timeout: 20_000 });
      await expect(message(page, EDITED).getByTestId('reaction')).toHaveAttribute('data-emoji', EMOJI);
      await expect(message(page, ORIGINAL)).toHaveCount(0);
    }

    // Анна deletes a message for everyone: it goes for Борис, and so does its plaintext in his browser.
    await composer(a).fill(DOOMED);
    await composer(a).press('Enter');
    await expect(message(b, DOOMED)).toBeVisible({ timeout: 20_000 });
    const doomedId = (await message(b, DOOMED).getAttribute('data-message-id')) as string;
    expect(await keptIds(b)).toContain(doomedId);
    await message(a, DOOMED).click({ button: 'right' });
    await a.getByRole('menuitem', { name: 'Удалить' }).click();
    await a.getByRole('dialog', { name: 'Удалить сообщение?' }).getByRole('button', { name: 'Удалить у всех' }).click();
    await expect(message(a, DOOMED)).toHaveCount(0);
    await expect(message(b, DOOMED)).toHaveCount(0, { timeout: 20_000 });
    await expect.poll(() => keptIds(b), { timeout: 10_000 }).not.toContain(doomedId);
    await expect(message(b, EDITED)).toBeVisible();

    // Nothing the server keeps holds the edited text or the emoji.
    await srv.server.app.close().catch(() => undefined);
    const files = filesUnder(srv.config.dataDir).map((f) => ({ where: f, bytes: fs.readFileSync(f) }));
    expect(files.some((f) => f.where.endsWith('messenger.sqlite'))).toBe(true);
    for (const text of [ORIGINAL, EDITED, DOOMED, EMOJI]) {
      const needle = Buffer.from(text, 'utf8');
      for (const f of files) expect(f.bytes.includes(needle), `${text} in ${f.where}`).toBe(false);
    }
  } finally {
    await srv.close();
  }
});
