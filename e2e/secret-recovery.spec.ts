// «Ключ восстановления» end to end in real Chromium against the real server (docs/secret-chats.md "The recovery
// key"): Анна on two devices and Борис on one share a secret chat. Анна sets a recovery key; Борис sets one too and
// signs in on a new device: what came before shows as unavailable, what comes next reads; a wrong phrase is
// refused, his phrase makes the older messages readable. The backup the server holds has no plaintext in it.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startTestServer } from '../tests/server/harness';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { approveDevice, becomeDevice, filesUnder, open, signInAgain } from './secret-helpers';
import { createUser, makeFriends } from './users';

const FIRST = 'секрет до ключа восстановления';
const ANSWER = 'ответ Бориса после его ключа';
const LATER = 'это новое устройство прочтёт и так';
const UNAVAILABLE = 'Сообщения, отправленные до входа на этом устройстве, недоступны';

test.afterEach(async ({ browser }) => {
  for (const c of browser.contexts()) await c.close().catch(() => {});
});

const bubble = (page: Page, text: string) => page.locator('.msg-text').filter({ hasText: text });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Сообщение' });

/** Sets a recovery key in settings; the phrase shown once. Then back to the chats. */
async function setRecoveryKey(page: Page, base: string): Promise<string> {
  await page.goto(`${base}/settings`);
  const card = page.getByRole('region', { name: 'Ключ восстановления' });
  await card.getByRole('button', { name: 'Настроить ключ восстановления' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ключ восстановления' });
  await expect(dialog).toContainText('Ключ восстановления не создан');
  await dialog.getByRole('button', { name: 'Создать ключ' }).click();
  const phrase = (await dialog.locator('.recovery-phrase code').textContent({ timeout: 20_000 })) ?? '';
  await expectNoSeriousA11yViolations(page, '«Ключ восстановления» with the phrase');
  expect(phrase).toMatch(/^([0-9A-Z]{4}-){7}[0-9A-Z]{4}$/);
  await dialog.getByRole('button', { name: 'Я сохранил ключ' }).click();
  await expect(dialog.getByRole('status')).toContainText('Ключ восстановления сохранён', { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Готово' }).click();
  await expect(dialog).toHaveCount(0);
  return phrase;
}

test('a recovery key: a new device reads from its join, and with the key the older messages', async ({ browser }) => {
  test.setTimeout(240_000);
  const srv = await startTestServer({ clientDir: path.resolve(process.env.E2E_CLIENT_DIR ?? 'dist') });
  try {
    const anna = await createUser(srv.url, 'Анна', 'anna');
    const boris = await createUser(srv.url, 'Борис', 'boris');
    await makeFriends(srv.url, anna, boris);
    const anna2 = await signInAgain(srv.url, anna);
    const a1 = await open(browser, srv, anna);
    const a2 = await open(browser, srv, anna2);
    const b1 = await open(browser, srv, boris);
    await becomeDevice(b1);
    await becomeDevice(a2, a1);

    await a1.getByRole('button', { name: 'Новый секретный чат' }).click();
    const dialog = a1.getByRole('dialog', { name: 'Новый секретный чат' });
    await expect(dialog).toContainText('Ключ восстановления');
    await tick(dialog.getByRole('checkbox', { name: /Борис/ }));
    await dialog.getByRole('button', { name: 'Создать' }).click();
    await expect(a1).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
    const chatUrl = a1.url();
    await composer(a1).fill(FIRST);
    await composer(a1).press('Enter');
    await expect(bubble(a1, FIRST)).toBeVisible();
    for (const page of [a2, b1]) {
      await page.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
      await expect(bubble(page, FIRST)).toBeVisible({ timeout: 20_000 });
    }

    // Анна sets a recovery key on her first device: what it kept goes to the server, encrypted.
    await setRecoveryKey(a1, srv.url);
    const annaChunks = await srv.server.ctx.db
      .selectFrom('secret_backup_chunks')
      .select('body')
      .where('user_id', '=', anna.user.id)
      .execute();
    expect(annaChunks.length).toBeGreaterThan(0);

    // Борис sets his on his device; his answer, sent after, is backed up as it is sent.
    const phrase = await setRecoveryKey(b1, srv.url);
    await b1.goto(chatUrl);
    await expect(bubble(b1, FIRST)).toBeVisible({ timeout: 20_000 });
    await composer(b1).fill(ANSWER);
    await composer(b1).press('Enter');
    for (const page of [a1, a2]) {
      await page.goto(chatUrl);
      await expect(bubble(page, ANSWER)).toBeVisible({ timeout: 20_000 });
    }
    await expect
      .poll(
        async () =>
          (
            await srv.server.ctx.db
              .selectFrom('secret_backup_chunks')
              .select('id')
              .where('user_id', '=', boris.user.id)
              .execute()
          ).length,
        { timeout: 20_000 },
      )
      .toBeGreaterThanOrEqual(2);

    // Борис on a new device: the older messages are unavailable, a new one reads.
    const b3 = await open(browser, srv, await signInAgain(srv.url, boris));
    await approveDevice([b1, b3]);
    await b3.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
    await expect(b3.getByText(UNAVAILABLE).first()).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(
        async () =>
          (
            await srv.server.ctx.db
              .selectFrom('secret_group_devices')
              .select('device_id')
              .where('left_seq', 'is', null)
              .execute()
          ).length,
        { timeout: 30_000 },
      )
      .toBe(4);
    await composer(a1).fill(LATER);
    await composer(a1).press('Enter');
    await expect(bubble(b3, LATER)).toBeVisible({ timeout: 30_000 });
    await expect(bubble(b3, FIRST)).toHaveCount(0);

    // A wrong phrase is refused and changes nothing; his phrase makes the older messages readable.
    await b3.getByRole('button', { name: 'Ввести ключ восстановления' }).first().click();
    const recovery = b3.getByRole('dialog', { name: 'Ключ восстановления' });
    const input = recovery.getByRole('textbox', { name: 'Ключ восстановления' });
    await input.fill('AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH');
    await recovery.getByRole('button', { name: 'Восстановить' }).click();
    await expect(recovery.getByRole('alert')).toHaveText('Неверный ключ восстановления', { timeout: 30_000 });
    await expect(bubble(b3, FIRST)).toHaveCount(0);
    await input.fill(phrase.toLowerCase());
    await recovery.getByRole('button', { name: 'Восстановить' }).click();
    await expect(recovery.getByRole('status')).toContainText('История восстановлена', { timeout: 30_000 });
    await recovery.getByRole('button', { name: 'Готово' }).click();
    for (const text of [FIRST, ANSWER, LATER]) await expect(bubble(b3, text)).toBeVisible({ timeout: 20_000 });
    await expect(b3.getByText(UNAVAILABLE)).toHaveCount(0);
    // And after a reload, from its own store.
    await b3.reload();
    for (const text of [FIRST, ANSWER]) await expect(bubble(b3, text)).toBeVisible({ timeout: 20_000 });

    // The backups the server holds are opaque: no text, as stored or base64-decoded; nor is any file it wrote.
    const chunks = await srv.server.ctx.db.selectFrom('secret_backup_chunks').select('body').execute();
    expect(chunks.length).toBeGreaterThanOrEqual(3);

    // «Удалить ключ восстановления» deletes Борис's backup on the server.
    await b3.goto(`${srv.url}/settings`);
    await b3.getByRole('button', { name: 'Настроить ключ восстановления' }).click();
    const settings = b3.getByRole('dialog', { name: 'Ключ восстановления' });
    await expect(settings.getByRole('status')).toContainText('это устройство сохраняет', { timeout: 20_000 });
    await settings.getByRole('button', { name: 'Удалить ключ восстановления' }).click();
    await expect(settings.getByRole('status')).toHaveText('Ключ восстановления не создан.', { timeout: 20_000 });
    const left = await srv.server.ctx.db
      .selectFrom('secret_backup_chunks')
      .select('id')
      .where('user_id', '=', boris.user.id)
      .execute();
    expect(left).toHaveLength(0);
    await srv.server.app.close().catch(() => undefined);
    const haystacks = [
      ...chunks.map((c, i) => ({ where: `chunk ${i}`, bytes: Buffer.from(c.body, 'base64') })),
      ...chunks.map((c, i) => ({ where: `chunk ${i} as stored`, bytes: Buffer.from(c.body, 'utf8') })),
      ...filesUnder(srv.config.dataDir).map((f) => ({ where: f, bytes: fs.readFileSync(f) })),
    ];
    for (const text of [FIRST, ANSWER, LATER]) {
      const needle = Buffer.from(text, 'utf8');
      for (const h of haystacks) expect(h.bytes.includes(needle), `${text} in ${h.where}`).toBe(false);
    }
  } finally {
    await srv.close();
  }
});
