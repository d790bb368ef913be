// Secret chats end to end in real Chromium against the real server (docs/secret-chats.md): Анна on two devices
// (two sign-ins in two browser contexts) and Борис on one. Анна creates the chat, both write, every device reads
// the other's texts, a reload shows them again from the sealed store; nothing the server wrote to disk or logged
// contains a plaintext. Then Борис signs in on a third device: the online devices add it, it reads what comes
// next, and what came before shows as unavailable. In a secret group, a removed member's device gets nothing more.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startTestServer } from '../tests/server/harness';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { approveDevice, becomeDevice, filesUnder, open, signInAgain } from './secret-helpers';
import { apiCall, createUser, makeFriends } from './users';

const FIRST = 'привет из секретного чата';
const ANSWER = 'ответ Бориса, тоже секретный';
const LATER = 'это увидит и новое устройство';
const UNAVAILABLE = 'Сообщения, отправленные до входа на этом устройстве, недоступны';

// Each test's browsers go away with it (idle pages slow the next test down on two shared cores).
test.afterEach(async ({ browser }) => {
  for (const c of browser.contexts()) await c.close().catch(() => {});
});

const bubble = (page: Page, text: string) => page.locator('.msg-text').filter({ hasText: text });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Сообщение' });

test('a secret chat: two people, three devices, no plaintext on the server', async ({ browser }) => {
  test.setTimeout(180_000);
  const logs: string[] = [];
  const srv = await startTestServer(
    { clientDir: path.resolve(process.env.E2E_CLIENT_DIR ?? 'dist'), logLevel: 'debug' },
    { logStream: { write: (line) => void logs.push(line) } },
  );
  try {
    const anna = await createUser(srv.url, 'Анна', 'anna');
    const boris = await createUser(srv.url, 'Борис', 'boris');
    await makeFriends(srv.url, anna, boris);
    const anna2 = await signInAgain(srv.url, anna);

    const a1 = await open(browser, srv, anna);
    const a2 = await open(browser, srv, anna2);
    const b1 = await open(browser, srv, boris);
    await becomeDevice(b1);
    // Анна's two browsers: the one that made her identity key approves the other, once it opens «Новый секретный
    // чат» (before that, with no secret chat, neither is asked anything).
    await becomeDevice(a2, a1);

    // Анна creates the chat on her first device.
    await a1.getByRole('button', { name: 'Новый секретный чат' }).click();
    const dialog = a1.getByRole('dialog', { name: 'Новый секретный чат' });
    await expect(dialog).toContainText('сервер хранит только шифротекст');
    await expectNoSeriousA11yViolations(a1, '«Новый секретный чат»');
    await tick(dialog.getByRole('checkbox', { name: /Борис/ }));
    await dialog.getByRole('button', { name: 'Создать' }).click();
    await expect(a1).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
    await expect(a1.getByTestId('conversation-secret')).toHaveText(/Секретный чат/);
    // Files, voice messages (secret-files.spec.ts) and encrypted calls (secret-calls.spec.ts) have specs of their own.

    await composer(a1).fill(FIRST);
    await composer(a1).press('Enter');
    await expect(bubble(a1, FIRST)).toBeVisible();

    // Борис and Анна's second device read it.
    for (const page of [b1, a2]) {
      const tile = page.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' });
      await expect(tile).toContainText(FIRST, { timeout: 20_000 });
      await tile.click();
      await expect(bubble(page, FIRST)).toBeVisible({ timeout: 20_000 });
    }
    await expectNoSeriousA11yViolations(b1, 'secret chat');

    await composer(b1).fill(ANSWER);
    await composer(b1).press('Enter');
    for (const page of [a1, a2]) await expect(bubble(page, ANSWER)).toBeVisible({ timeout: 20_000 });

    // A reload reads both from the sealed store (each ciphertext decrypts once).
    await b1.reload();
    for (const text of [FIRST, ANSWER]) await expect(bubble(b1, text)).toBeVisible({ timeout: 20_000 });

    // Борис on a third device: the online devices add it; it reads what comes next, not what came before.
    const boris3 = await signInAgain(srv.url, boris);
    const b3 = await open(browser, srv, boris3);
    await approveDevice([b1, b3]);
    const tile3 = b3.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' });
    await tile3.click();
    await expect(b3.getByText(UNAVAILABLE).first()).toBeVisible({ timeout: 30_000 });
    // The online devices added it: four devices in the group.
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
    await expect(b3.getByText('Это устройство ещё не добавлено в секретный чат', { exact: false })).toHaveCount(0);
    await composer(a1).fill(LATER);
    await composer(a1).press('Enter');
    await expect(bubble(b3, LATER)).toBeVisible({ timeout: 30_000 });
    await expect(bubble(b3, FIRST)).toHaveCount(0);

    // Nothing the server keeps or logs holds a plaintext.
    await srv.server.app.close().catch(() => undefined);
    const haystacks = [
      ...filesUnder(srv.config.dataDir).map((f) => ({ where: f, bytes: fs.readFileSync(f) })),
      { where: 'log', bytes: Buffer.from(logs.join(''), 'utf8') },
    ];
    expect(logs.length).toBeGreaterThan(0);
    for (const text of [FIRST, ANSWER, LATER]) {
      const needle = Buffer.from(text, 'utf8');
      for (const h of haystacks) expect(h.bytes.includes(needle), `${text} in ${h.where}`).toBe(false);
    }
  } finally {
    await srv.close();
  }
});

test('a secret group: a removed member gets nothing more, the others go on', async ({ srv, browser }) => {
  test.setTimeout(150_000);
  const anna = await createUser(srv.url, 'Анна', 'anna');
  const boris = await createUser(srv.url, 'Борис', 'boris');
  const vera = await createUser(srv.url, 'Вера', 'vera');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  const pa = await open(browser, srv, anna);
  const pb = await open(browser, srv, boris);
  const pv = await open(browser, srv, vera);
  await becomeDevice(pb);
  await becomeDevice(pv);

  await pa.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = pa.getByRole('dialog', { name: 'Новый секретный чат' });
  await tick(dialog.getByRole('checkbox', { name: /Борис/ }));
  await tick(dialog.getByRole('checkbox', { name: /Вера/ }));
  await dialog.getByRole('textbox', { name: 'Название' }).fill('Тайный совет');
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(pa).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  const conversationId = pa.url().split('/c/')[1] as string;

  await composer(pa).fill('для всех троих');
  await composer(pa).press('Enter');
  for (const page of [pb, pv]) {
    await page.getByTestId('chat-tile').filter({ hasText: 'Тайный совет' }).click();
    await expect(bubble(page, 'для всех троих')).toBeVisible({ timeout: 20_000 });
  }

  // Анна removes Вера: the chat leaves Вера's list; an online device commits the removal of her device.
  await apiCall(
    srv.url,
    'POST',
    '/api/conversations/members/remove',
    { conversationId, userId: vera.user.id },
    anna.accessToken,
  );
  await expect(pv.getByTestId('chat-tile').filter({ hasText: 'Тайный совет' })).toHaveCount(0, { timeout: 20_000 });
  await expect
    .poll(
      async () =>
        (
          await srv.server.ctx.db
            .selectFrom('secret_group_devices')
            .select('device_id')
            .where('conversation_id', '=', conversationId)
            .where('left_seq', 'is', null)
            .execute()
        ).length,
      { timeout: 30_000 },
    )
    .toBe(2);

  await composer(pa).fill('только для двоих');
  await composer(pa).press('Enter');
  await expect(bubble(pb, 'только для двоих')).toBeVisible({ timeout: 20_000 });
  await expect(bubble(pv, 'только для двоих')).toHaveCount(0);
  await expect(pv.getByText('только для двоих')).toHaveCount(0);
});
