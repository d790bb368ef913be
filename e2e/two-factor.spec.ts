// Two-step sign-in (docs/behaviour.md §10.7a) in real Chromium against the real server: set up in «Безопасность»
// with the key shown on screen (the test computes the app's codes with otplib, as an authenticator would), the ten
// recovery codes, a sign-in on a new browser asking «Код из приложения», «Запомнить этот браузер на 30 дней», and a
// sign-in with a recovery code. Every new screen through axe in both themes. Server rules: tests/server/two-factor.test.ts.
import type { Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { apiCall, type E2EUser } from './users';

/** The app's code now, or for the next 30-second step (a code of the step just used is refused as a replay). */
const codeOf = (secret: string, stepsAhead = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

async function signIn(page: Page, u: E2EUser) {
  await page.getByLabel('Никнейм').fill(u.username);
  await page.getByLabel('Пароль').fill(u.password);
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
}

test('set up in «Безопасность», then a new browser asks for the code and may be remembered', async ({
  srv,
  createUser,
  openSignedIn,
  newContext,
}) => {
  const u = await createUser('Тамара');
  const { page } = await openSignedIn(u, { path: '/settings' });
  const security = page.getByRole('region', { name: 'Безопасность' });
  await expect(security.getByRole('button', { name: 'Включить двухэтапную проверку' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '«Безопасность», проверка выключена');

  await security.getByRole('button', { name: 'Включить двухэтапную проверку' }).click();
  const secretText = security.getByTestId('two-factor-secret');
  await expect(secretText).toHaveText(/^[A-Z2-7]{32}$/);
  await expect(security.getByRole('img', { name: 'QR-код для приложения-аутентификатора' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '«Безопасность», настройка');
  const secret = (await secretText.textContent()) as string;

  // A wrong code is said and the set-up stays open.
  await security.getByLabel('Код из приложения').fill(codeOf(secret) === '000000' ? '111111' : '000000');
  await security.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(security.getByRole('alert')).toHaveText('Неверный код');
  await security.getByLabel('Код из приложения').fill(codeOf(secret));
  await security.getByRole('button', { name: 'Подтвердить' }).click();
  const codes = security.getByRole('list', { name: 'Коды восстановления' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  for (const c of await codes.allTextContents()) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expect(security.getByRole('link', { name: 'Скачать' })).toHaveAttribute(
    'download',
    'beseda-recovery-codes.txt',
  );
  await expectNoSeriousA11yViolations(page, '«Безопасность», коды восстановления');
  await security.getByRole('button', { name: 'Готово' }).click();
  await expect(security.getByRole('status')).toHaveText(
    'Двухэтапная проверка включена. Осталось кодов восстановления: 10.',
  );
  await expectNoSeriousA11yViolations(page, '«Безопасность», проверка включена');

  // A new browser: the password, then the code.
  const other = await (await newContext({ baseURL: srv.url })).newPage();
  await other.goto(`${srv.url}/auth`);
  await signIn(other, u);
  const step = other.getByRole('form', { name: 'Двухэтапная проверка' });
  await expect(step.getByLabel('Код из приложения')).toBeVisible();
  await expectNoSeriousA11yViolations(other, 'вход: код из приложения');
  await step.getByLabel('Код из приложения').fill('12345x');
  await step.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(step.getByRole('alert')).toHaveText('Неверный код');
  await expectNoSeriousA11yViolations(other, 'вход: неверный код');
  await step.getByLabel('Код из приложения').fill(codeOf(secret, 1));
  await tick(step.getByLabel('Запомнить этот браузер на 30 дней'));
  await step.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(other).toHaveURL(`${srv.url}/`);
  await expect(other.getByRole('button', { name: 'Выйти' })).toBeVisible();

  // Remembered: signing out and in again asks for the password only.
  await other.getByRole('button', { name: 'Выйти' }).click();
  await other.getByRole('alertdialog', { name: 'Выйти из аккаунта?' }).getByRole('button', { name: 'Выйти' }).click();
  await expect(other).toHaveURL(`${srv.url}/auth`);
  await signIn(other, u);
  await expect(other).toHaveURL(`${srv.url}/`);
});

test('a recovery code signs in once, and «Назад» returns to the password', async ({ srv, createUser, newContext }) => {
  const u = await createUser('Рустам');
  const begun = await apiCall<{ secret: string }>(srv.url, 'POST', '/api/auth/two-factor/begin', {}, u.accessToken);
  const { recoveryCodes } = await apiCall<{ recoveryCodes: string[] }>(
    srv.url,
    'POST',
    '/api/auth/two-factor/confirm',
    { code: codeOf(begun.secret) },
    u.accessToken,
  );

  const page = await (await newContext({ baseURL: srv.url })).newPage();
  await page.goto(`${srv.url}/auth`);
  await signIn(page, u);
  const step = page.getByRole('form', { name: 'Двухэтапная проверка' });
  await step.getByRole('button', { name: 'Назад' }).click();
  await expect(page.getByRole('form', { name: 'Вход' })).toBeVisible();
  await signIn(page, u);
  await step.getByLabel('Код из приложения').fill(recoveryCodes[0]);
  await step.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(page).toHaveURL(`${srv.url}/`);

  await page.goto(`${srv.url}/settings`);
  await expect(page.getByRole('region', { name: 'Безопасность' }).getByRole('status')).toHaveText(
    'Двухэтапная проверка включена. Осталось кодов восстановления: 9.',
  );
  // Spent: the same code no longer signs in.
  const again = await (await newContext({ baseURL: srv.url })).newPage();
  await again.goto(`${srv.url}/auth`);
  await signIn(again, u);
  await again.getByLabel('Код из приложения').fill(recoveryCodes[0]);
  await again.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(again.getByRole('alert')).toHaveText('Неверный код');
});

test.describe('required by the administrator', () => {
  // An empty server of its own: the first account registered administers it.
  test.use({ privateServerOptions: {} });

  test('a person without a second factor is taken to «Безопасность» and kept there until it is on', async ({
    srv,
    createUser,
    newContext,
  }) => {
    const admin = await createUser('Ольга Админ', 'olga');
    await apiCall(srv.url, 'PATCH', '/api/admin/settings', { twoFactorRequired: 'everyone' }, admin.accessToken);
    const u = await createUser('Пётр');
    const page = await (await newContext({ baseURL: srv.url })).newPage();
    await page.goto(`${srv.url}/auth`);
    await signIn(page, u);
    await expect(page).toHaveURL(`${srv.url}/settings`);
    const security = page.getByRole('region', { name: 'Безопасность' });
    await expect(security.getByRole('status')).toHaveText(
      'Администратор сервера требует двухэтапную проверку. Включите её, чтобы продолжить.',
    );
    await expectNoSeriousA11yViolations(page, '«Безопасность», проверка обязательна');
    await page.getByRole('link', { name: 'Контакты' }).click();
    await expect(page).toHaveURL(`${srv.url}/settings`);

    await security.getByRole('button', { name: 'Включить двухэтапную проверку' }).click();
    const secret = (await security.getByTestId('two-factor-secret').textContent()) as string;
    await security.getByLabel('Код из приложения').fill(codeOf(secret));
    await security.getByRole('button', { name: 'Подтвердить' }).click();
    await security.getByRole('button', { name: 'Готово' }).click();
    await page.getByRole('link', { name: 'Контакты' }).click();
    await expect(page).toHaveURL(`${srv.url}/contacts`);
  });
});
