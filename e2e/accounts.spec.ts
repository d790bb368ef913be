// «Устройства», «Сменить пароль», «Экспорт данных» and «Удалить аккаунт» in Settings, in real Chromium against the
// real server: ending another sign-in signs that page out at once, a password change signs out every other sign-in,
// the export downloads a ZIP with one's messages. Server rules: tests/server/sessions.test.ts, export.test.ts.
import fs from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, type E2EUser, sendText } from './users';

/** What the sign-in screen says after this sign-in was ended from elsewhere. */
const ENDED_ELSEWHERE = 'Сеанс завершён на другом устройстве или администратором. Войдите снова.';

/** Another sign-in of the same user (its own tokens), as a second device would make. */
async function signInAgain(base: string, u: E2EUser): Promise<E2EUser> {
  const tokens = await apiCall<{ accessToken: string; refreshToken: string }>(base, 'POST', '/api/auth/login', {
    username: u.username,
    password: u.password,
  });
  return { ...u, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
}

test('ending another sign-in from «Устройства» signs that page out at once', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const u = await createUser('Вера');
  const { page: laptop } = await openSignedIn(u, { path: '/settings' });
  const { page: phone } = await openSignedIn(await signInAgain(srv.url, u));
  await expect(phone.getByRole('button', { name: 'Выйти' })).toBeVisible();

  const devices = laptop.getByTestId('device');
  await expect(devices).toHaveCount(2);
  await expect(devices.filter({ hasText: 'Это устройство' })).toHaveCount(1);
  await expectNoSeriousA11yViolations(laptop, '«Устройства»');
  await expectNoSeriousA11yViolations(laptop, '«Сменить пароль»');

  await devices
    .filter({ hasNotText: 'Это устройство' })
    .getByRole('button', { name: /^Завершить сеанс/ })
    .click();
  await expect(devices).toHaveCount(1);
  await expect(phone.getByRole('button', { name: 'Войти', exact: true })).toBeVisible({ timeout: 10_000 });
  // The phone's sign-in screen says why.
  await expect(phone.getByRole('alert')).toHaveText(ENDED_ELSEWHERE);
  // The laptop stays signed in.
  await laptop.reload();
  await expect(laptop.getByTestId('device')).toHaveCount(1);
});

test('a password change signs out every other sign-in and keeps this one', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const u = await createUser('Глеб');
  const { page } = await openSignedIn(u, { path: '/settings' });
  const { page: other } = await openSignedIn(await signInAgain(srv.url, u));
  await expect(other.getByRole('button', { name: 'Выйти' })).toBeVisible();

  const form = page.locator('.settings-password');
  await form.getByLabel('Текущий пароль').fill('не тот пароль');
  await form.getByLabel('Новый пароль', { exact: true }).fill('новый пароль 2026');
  await form.getByLabel('Новый пароль ещё раз').fill('новый пароль 2026');
  await form.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(form.getByRole('alert')).toHaveText('Неверный текущий пароль');

  await form.getByLabel('Текущий пароль').fill(u.password);
  await form.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(form.getByRole('status')).toHaveText('Пароль изменён. Другие устройства вышли из аккаунта.');
  await expect(other.getByRole('button', { name: 'Войти', exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(other.getByRole('alert')).toHaveText(ENDED_ELSEWHERE);
  await expect(page.getByTestId('device')).toHaveCount(1);
  const login = await fetch(`${srv.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: u.username, password: 'новый пароль 2026' }),
  });
  expect(login.status).toBe(200);
});

test('deleting the account signs it out, and the friend sees «Удалённый аккаунт» with the history kept', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  await sendText(srv.url, a, conversationId, 'Прощальное сообщение');
  const { page } = await openSignedIn(a, { path: '/settings' });
  const { page: friend } = await openSignedIn(b);
  await expect(friend.getByTestId('chat-tile').first()).toContainText(a.displayName);

  const form = page.locator('.settings-delete');
  await expectNoSeriousA11yViolations(page, '«Удалить аккаунт»');
  const button = form.getByRole('button', { name: 'Удалить аккаунт' });
  await form.getByLabel('Пароль').fill('не тот пароль');
  await expect(button).toBeDisabled();
  await form.getByLabel('Введите УДАЛИТЬ, чтобы подтвердить').fill('удалить');
  await button.click();
  await expect(form.getByRole('alert')).toHaveText('Неверный пароль');

  await form.getByLabel('Пароль').fill(a.password);
  await button.click();
  await expect(page.getByRole('button', { name: 'Войти', exact: true })).toBeVisible({ timeout: 10_000 });

  await expect(friend.getByTestId('chat-tile').first()).toContainText('Удалённый аккаунт', { timeout: 10_000 });
  await friend.getByTestId('chat-tile').first().click();
  await expect(friend.getByTestId('message').filter({ hasText: 'Прощальное сообщение' })).toBeVisible();
});

test('«Экспорт данных» builds an archive with progress and downloads a ZIP holding one’s messages', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  await sendText(srv.url, b, conversationId, 'Вопрос от друга');
  await sendText(srv.url, a, conversationId, 'Мой ответ для архива');
  const { page } = await openSignedIn(a, { path: '/settings' });
  const section = page.locator('.settings-export');
  await section.getByRole('button', { name: 'Подготовить архив' }).click();
  const download = section.getByRole('link', { name: 'Скачать архив' });
  await expect(download).toBeVisible({ timeout: 15_000 });
  await expect(section.getByRole('status')).toContainText('Архив готов');
  await expectNoSeriousA11yViolations(page, '«Экспорт данных»');

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^beseda-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = unzipSync(new Uint8Array(fs.readFileSync(await file.path())));
  const conversation = JSON.parse(strFromU8(zip[`conversations/${conversationId}.json`]));
  expect(conversation.messages.map((m: { text: string; author: { name: string } }) => [m.author.name, m.text])).toEqual(
    [
      [b.displayName, 'Вопрос от друга'],
      [a.displayName, 'Мой ответ для архива'],
    ],
  );
  expect(JSON.parse(strFromU8(zip['profile.json'])).username).toBe(a.username);

  // Reopening Settings finds the ready archive; the friend cannot fetch it even with its link.
  await page.reload();
  await expect(section.getByRole('link', { name: 'Скачать архив' })).toBeVisible();
  const href = (await section.getByRole('link', { name: 'Скачать архив' }).getAttribute('href')) as string;
  const id = /\/api\/export\/([^/]+)\/download/.exec(href)?.[1];
  const theirs = await fetch(`${srv.url}/api/export/${id}/download`, {
    headers: { authorization: `Bearer ${b.accessToken}` },
  });
  expect(theirs.status).toBe(404);
});
