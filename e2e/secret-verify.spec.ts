// «Проверить шифрование» and «новое устройство» end to end in real Chromium against the real server
// (docs/secret-chats.md, threat model): Анна and Борис see the same fingerprint of their secret chat; Борис signs in
// on a second browser (a new device), Анна's device adds it, her chat shows «Борис: новое устройство», and her
// fingerprint changes and matches Борис's again.
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startTestServer } from '../tests/server/harness';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { approveDevice, open, signInAgain } from './secret-helpers';
import { createUser, makeFriends } from './users';

test.afterEach(async ({ browser }) => {
  for (const c of browser.contexts()) await c.close().catch(() => {});
});

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Every one of `parts` lies within `box`'s box, and `box` within the viewport. */
async function expectInside(box: Locator, parts: Locator, viewport: { width: number; height: number }) {
  const outer = (await box.boundingBox())!;
  expect(outer.x).toBeGreaterThanOrEqual(0);
  expect(outer.x + outer.width).toBeLessThanOrEqual(viewport.width);
  for (const part of await parts.all()) {
    const inner = (await part.boundingBox())!;
    const at = `${viewport.width}×${viewport.height}: ${await part.textContent()}`;
    expect(inner.x, at).toBeGreaterThanOrEqual(outer.x);
    expect(inner.x + inner.width, at).toBeLessThanOrEqual(outer.x + outer.width);
  }
}

/** The fingerprint «Проверить шифрование» shows (12 groups of 5 digits, 8 emoji), its dialog closed after. */
async function fingerprintOn(page: Page): Promise<{ digits: string; emoji: string }> {
  await page.getByRole('button', { name: 'Проверить шифрование' }).click();
  const dialog = page.getByRole('dialog', { name: 'Проверить шифрование' });
  const digits = dialog.getByTestId('fingerprint-digits');
  await expect(digits).toHaveText(/^(\d{5}){12}$/, { timeout: 20_000 });
  await expect(dialog).toContainText('при личной встрече');
  await expectNoSeriousA11yViolations(page, '«Проверить шифрование»');
  const out = {
    digits: (await digits.textContent()) ?? '',
    emoji: (await dialog.getByTestId('fingerprint-emoji').textContent()) ?? '',
  };
  expect(out.emoji.split(' ')).toHaveLength(8);
  // The 60 digits stay inside the dialog on a desktop and on a phone.
  const size = page.viewportSize();
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await expectInside(dialog, digits.locator('span'), viewport);
  }
  if (size) await page.setViewportSize(size);
  await dialog.getByRole('button', { name: 'Закрыть', exact: true }).click();
  return out;
}

test('both see one fingerprint; a new device of Борис is announced and changes it for both', async ({ browser }) => {
  test.setTimeout(180_000);
  const srv = await startTestServer({ clientDir: path.resolve(process.env.E2E_CLIENT_DIR ?? 'dist') });
  try {
    const anna = await createUser(srv.url, 'Анна', 'anna');
    const boris = await createUser(srv.url, 'Борис', 'boris');
    await makeFriends(srv.url, anna, boris);
    const a1 = await open(browser, srv, anna);
    const b1 = await open(browser, srv, boris);
    // Opening «Новый секретный чат» once makes Борис's browser a device Анна can add.
    await b1.getByRole('button', { name: 'Новый секретный чат' }).click();
    const bd = b1.getByRole('dialog', { name: 'Новый секретный чат' });
    await expect(bd.getByRole('button', { name: 'Создать' })).toBeEnabled();
    await bd.getByRole('button', { name: 'Отмена' }).click();

    await a1.getByRole('button', { name: 'Новый секретный чат' }).click();
    const dialog = a1.getByRole('dialog', { name: 'Новый секретный чат' });
    await tick(dialog.getByRole('checkbox', { name: /Борис/ }));
    await dialog.getByRole('button', { name: 'Создать' }).click();
    await expect(a1).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
    await b1.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
    await expect(b1.getByTestId('conversation-secret')).toBeVisible();

    const before = await fingerprintOn(a1);
    await expect.poll(() => fingerprintOn(b1), { timeout: 30_000 }).toEqual(before);

    // Борис signs in on a second browser: a new device, added by an online device of the chat.
    const b2 = await open(browser, srv, await signInAgain(srv.url, boris));
    await approveDevice([b1, b2]);
    await b2.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
    await expect(a1.getByTestId('system-entry').filter({ hasText: 'Борис: новое устройство' })).toBeVisible({
      timeout: 30_000,
    });
    const after = await fingerprintOn(a1);
    expect(after).not.toEqual(before);
    await expect.poll(() => fingerprintOn(b1), { timeout: 30_000 }).toEqual(after);
    // Kept in the sealed store: a reload shows the notice again.
    await a1.reload();
    await expect(a1.getByTestId('system-entry').filter({ hasText: 'Борис: новое устройство' })).toBeVisible({
      timeout: 20_000,
    });
  } finally {
    await srv.close();
  }
});
