// Identity keys end to end in real Chromium against the real server (docs/secret-chats.md "Identity keys"): Борис's
// new browser is no device until his first one approves it (the same code on both), then Анна's device adds it, and
// the safety number Анна sees for Борис is the same before and after; when Борис's identity key is reset without the
// old one, Анна's «Проверить шифрование» and the chat show it in red, and accepting the new key gives a new safety
// number.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { generateKeyPairSync } from 'node:crypto';
import { startTestServer } from '../tests/server/harness';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { approveDevice, becomeDevice, open, signInAgain, startSecretChat } from './secret-helpers';
import { apiCall, createUser, makeFriends } from './users';

test.afterEach(async ({ browser }) => {
  for (const c of browser.contexts()) await c.close().catch(() => {});
});

/** The safety number «Проверить шифрование» shows for a person (60 digits), the dialog closed after. */
async function safetyNumberOn(page: Page, userId: string): Promise<string> {
  await page.getByRole('button', { name: 'Проверить шифрование' }).click();
  const dialog = page.getByRole('dialog', { name: 'Проверить шифрование' });
  const section = dialog.locator(`[data-testid="safety-number"][data-user="${userId}"]`);
  const digits = section.getByTestId('safety-digits');
  await expect(digits).toHaveText(/^(\d{5}){12}$/, { timeout: 20_000 });
  await expect(section.getByRole('img', { name: /QR-код чисел безопасности/ })).toBeVisible();
  const out = (await digits.textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Закрыть', exact: true }).click();
  return out;
}

const devicesOf = (srv: Awaited<ReturnType<typeof startTestServer>>, userId: string) =>
  srv.server.ctx.db.selectFrom('secret_devices').select('id').where('user_id', '=', userId).execute();
const inGroup = async (srv: Awaited<ReturnType<typeof startTestServer>>) =>
  (
    await srv.server.ctx.db
      .selectFrom('secret_group_devices')
      .select('device_id')
      .where('left_seq', 'is', null)
      .execute()
  ).length;

test('a new browser joins only once approved; the safety number stays; a reset identity shows red', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const srv = await startTestServer({ clientDir: path.resolve(process.env.E2E_CLIENT_DIR ?? 'dist') });
  try {
    const anna = await createUser(srv.url, 'Анна', 'anna');
    const boris = await createUser(srv.url, 'Борис', 'boris');
    await makeFriends(srv.url, anna, boris);
    const a1 = await open(browser, srv, anna);
    const b1 = await open(browser, srv, boris);
    await becomeDevice(b1);

    await startSecretChat(a1, /Борис/);
    await b1.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
    const before = await safetyNumberOn(a1, boris.user.id);
    // Both see the same number for the pair.
    expect(await safetyNumberOn(b1, anna.user.id)).toBe(before);

    // Борис signs in on a second browser: it waits, with a code, and is no device until his first browser approves.
    const b2 = await open(browser, srv, await signInAgain(srv.url, boris));
    await expect(b2.getByTestId('secret-approval-waiting')).toContainText('Подтвердите вход', { timeout: 30_000 });
    expect(await devicesOf(srv, boris.user.id)).toHaveLength(1);
    // The waiting line and the first browser's notice are readable in the dark theme too.
    for (const page of [b2, b1]) {
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    }
    await expectNoSeriousA11yViolations(b2, 'waiting for approval, dark theme');
    await expect(b1.getByRole('region', { name: 'Новое устройство' })).toBeVisible({ timeout: 30_000 });
    await expectNoSeriousA11yViolations(b1, 'a new device to approve, dark theme');
    expect(await inGroup(srv)).toBe(2);
    await approveDevice([b1, b2]);
    await expect.poll(async () => (await devicesOf(srv, boris.user.id)).length, { timeout: 30_000 }).toBe(2);
    await expect.poll(() => inGroup(srv), { timeout: 30_000 }).toBe(3);
    await expect(
      a1.getByTestId('system-entry').filter({ hasText: 'Борис: новое устройство, подтверждённое ключом личности' }),
    ).toBeVisible({
      timeout: 30_000,
    });
    // A new sign-in leaves the safety number as it was.
    expect(await safetyNumberOn(a1, boris.user.id)).toBe(before);

    // Борис's identity key is reset without the old one (as after losing every browser and the recovery key).
    const fresh = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string;
    await apiCall(
      srv.url,
      'POST',
      '/api/secret/identity',
      { publicKey: Buffer.from(fresh, 'base64url').toString('base64'), reset: true },
      boris.accessToken,
    );
    await a1.getByRole('button', { name: 'Проверить шифрование' }).click();
    const verify = a1.getByRole('dialog', { name: 'Проверить шифрование' });
    await expect(verify.getByTestId('identity-changed')).toHaveText(/Борис: ключ личности сменился/, {
      timeout: 20_000,
    });
    await expect(verify.getByTestId('identity-changed')).toHaveCSS('color', /rgb\(\s*(1\d\d|2\d\d),/);
    // The chat says it too, in red, under its header.
    const notice = a1.getByTestId('identity-changed-notice');
    await expect(notice).toHaveText(/Борис: ключ личности сменился/, { timeout: 20_000 });
    await expect(notice).toHaveCSS('color', /rgb\(\s*(1\d\d|2\d\d),/);
    await verify.getByRole('button', { name: 'Принять новый ключ' }).click();
    await expect(verify.getByTestId('identity-changed')).toHaveCount(0, { timeout: 20_000 });
    await expect(notice).toHaveCount(0, { timeout: 20_000 });
    const after =
      (await verify.locator('[data-testid="safety-number"]').getByTestId('safety-digits').textContent()) ?? '';
    expect(after).toMatch(/^(\d{5}){12}$/);
    expect(after).not.toBe(before);
    await verify.getByRole('button', { name: 'Закрыть', exact: true }).click();
  } finally {
    await srv.close();
  }
});

/** Sets a recovery key in settings and returns its phrase (shown once). */
async function setRecoveryKey(page: Page, base: string): Promise<string> {
  await page.goto(`${base}/settings`);
  const card = page.getByRole('region', { name: 'Ключ восстановления' });
  await card.getByRole('button', { name: 'Настроить ключ восстановления' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ключ восстановления' });
  await dialog.getByRole('button', { name: 'Создать ключ' }).click();
  const phrase = (await dialog.locator('.recovery-phrase code').textContent({ timeout: 20_000 })) ?? '';
  await dialog.getByRole('button', { name: 'Я сохранил ключ' }).click();
  await expect(dialog.getByRole('status')).toContainText('Ключ восстановления сохранён', { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Готово' }).click();
  return phrase;
}

test('with only the recovery key, a new browser keeps the identity: the safety number stays', async ({ browser }) => {
  test.setTimeout(180_000);
  const srv = await startTestServer({ clientDir: path.resolve(process.env.E2E_CLIENT_DIR ?? 'dist') });
  try {
    const anna = await createUser(srv.url, 'Анна', 'anna');
    const boris = await createUser(srv.url, 'Борис', 'boris');
    await makeFriends(srv.url, anna, boris);
    const a1 = await open(browser, srv, anna);
    const b1 = await open(browser, srv, boris);
    await becomeDevice(b1);
    const phrase = await setRecoveryKey(b1, srv.url);
    // The backup holds the identity key as its one chunk of no conversation.
    await expect
      .poll(
        async () =>
          (
            await srv.server.ctx.db
              .selectFrom('secret_backup_chunks')
              .select('id')
              .where('user_id', '=', boris.user.id)
              .where('conversation_id', 'is', null)
              .execute()
          ).length,
        { timeout: 20_000 },
      )
      .toBe(1);

    await startSecretChat(a1, /Борис/);
    const before = await safetyNumberOn(a1, boris.user.id);

    // Борис's only browser is gone; a new one, with no old browser open, is let in by the recovery key.
    await b1.context().close();
    const b2 = await open(browser, srv, await signInAgain(srv.url, boris));
    const waiting = b2.getByTestId('secret-approval-waiting');
    await expect(waiting).toContainText('Подтвердите вход', { timeout: 30_000 });
    await waiting.getByRole('button', { name: 'Ввести ключ восстановления' }).click();
    const recovery = b2.getByRole('dialog', { name: 'Ключ восстановления' });
    await recovery.getByRole('textbox', { name: 'Ключ восстановления' }).fill(phrase);
    await recovery.getByRole('button', { name: 'Восстановить' }).click();
    await expect(recovery.getByRole('status')).toContainText('История восстановлена', { timeout: 30_000 });
    await recovery.getByRole('button', { name: 'Готово' }).click();
    await expect(waiting).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(async () => (await devicesOf(srv, boris.user.id)).length, { timeout: 30_000 }).toBe(2);
    // Анна's device adds it (signed by the identity key she knows), and the safety number is the one she had.
    await expect.poll(() => inGroup(srv), { timeout: 30_000 }).toBe(3);
    await expect(
      a1.getByTestId('system-entry').filter({ hasText: 'Борис: новое устройство, подтверждённое ключом личности' }),
    ).toBeVisible({ timeout: 30_000 });
    expect(await safetyNumberOn(a1, boris.user.id)).toBe(before);
  } finally {
    await srv.close();
  }
});
