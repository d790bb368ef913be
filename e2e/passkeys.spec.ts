// Passkeys (docs/behaviour.md §10.7b) in real Chromium against the real server, with Chromium's virtual authenticator
// (DevTools protocol WebAuthn: CTAP2, built in, keeping discoverable keys, verifying the person): a passkey added in
// «Безопасность» with the password, then «Войти с ключом доступа» after signing out (no username typed), «Устройства»
// naming the passkey, the passkey as the second step after the password, renaming and removing it. The page is opened
// on «localhost»: WebAuthn refuses an IP address as the site. Every new screen through axe in both themes. Server
// rules: tests/server/passkeys.test.ts.
import type { BrowserContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { type E2EUser, signInContext } from './users';

async function withAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** Signs out from the chat list, so the next sign-in lands there too. */
async function signOut(page: Page, site: string) {
  await page.goto(`${site}/`);
  await page.getByRole('button', { name: 'Выйти' }).click();
  await page.getByRole('alertdialog', { name: 'Выйти из аккаунта?' }).getByRole('button', { name: 'Выйти' }).click();
}

async function signInWithPassword(page: Page, u: E2EUser) {
  await page.getByLabel('Никнейм').fill(u.username);
  await page.getByLabel('Пароль', { exact: true }).fill(u.password);
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
}

test('a passkey added in «Безопасность» signs in without a password and as the second step', async ({
  srv,
  createUser,
  newContext,
}) => {
  // 24 s on a quiet day, 66 s on a day this machine ran every spec at about half its speed: near the default 90 s.
  test.slow();
  const site = srv.url.replace('127.0.0.1', 'localhost');
  const u = await createUser('Зоя');
  const context = await newContext({ baseURL: site });
  await signInContext(context, u);
  const page = await context.newPage();
  await withAuthenticator(context, page);
  await page.goto(`${site}/settings`);

  const keys = page.getByRole('region', { name: 'Ключи доступа' });
  const add = keys.getByRole('form', { name: 'Новый ключ доступа' });
  await expect(add.getByRole('button', { name: 'Добавить ключ доступа' })).toBeEnabled();
  await expectNoSeriousA11yViolations(page, '«Безопасность», ключей доступа нет');

  await add.getByLabel('Название ключа').fill('Ноутбук');
  await add.getByLabel('Пароль аккаунта').fill('не тот пароль');
  await add.getByRole('button', { name: 'Добавить ключ доступа' }).click();
  await expect(keys.getByRole('alert')).toHaveText('Неверный пароль');
  await add.getByLabel('Пароль аккаунта').fill(u.password);
  await add.getByRole('button', { name: 'Добавить ключ доступа' }).click();
  await expect(keys.getByRole('status')).toHaveText('Ключ доступа добавлен');
  const list = keys.getByRole('list', { name: 'Ключи доступа' });
  await expect(list.getByTestId('passkey')).toHaveCount(1);
  await expect(list.getByTestId('passkey')).toContainText('Ноутбук');
  await expect(list.getByTestId('passkey')).toContainText('Ещё не использовался');
  await expectNoSeriousA11yViolations(page, '«Безопасность», ключ доступа добавлен');

  // Signed out, back with the passkey alone.
  await signOut(page, site);
  await expect(page).toHaveURL(`${site}/auth`);
  await expect(page.getByRole('button', { name: 'Войти с ключом доступа' })).toBeEnabled();
  await expectNoSeriousA11yViolations(page, 'вход: «Войти с ключом доступа»');
  await page.getByRole('button', { name: 'Войти с ключом доступа' }).click();
  await expect(page).toHaveURL(`${site}/`);
  await expect(page.getByRole('button', { name: 'Выйти' })).toBeVisible();

  await page.goto(`${site}/settings`);
  const current = page
    .getByRole('region', { name: 'Устройства' })
    .getByTestId('device')
    .filter({ hasText: 'Это устройство' });
  await expect(current).toContainText('с ключом доступа «Ноутбук»');
  await expect(keys.getByTestId('passkey')).toContainText('Последний вход');

  // The password now asks for the second step, which the passkey answers.
  await signOut(page, site);
  await signInWithPassword(page, u);
  const step = page.getByRole('form', { name: 'Двухэтапная проверка' });
  await expect(step.getByRole('button', { name: 'Использовать ключ доступа' })).toBeEnabled();
  await expect(step.getByLabel('Код из приложения')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'вход: второй шаг ключом доступа');
  await step.getByRole('button', { name: 'Использовать ключ доступа' }).click();
  await expect(page).toHaveURL(`${site}/`);

  // Renamed, then removed with the password.
  await page.goto(`${site}/settings`);
  const item = keys.getByTestId('passkey');
  await item.getByRole('button', { name: 'Переименовать ключ «Ноутбук»' }).click();
  const rename = item.getByRole('form', { name: 'Переименование ключа «Ноутбук»' });
  await rename.getByLabel('Новое название').fill('Рабочий ноутбук');
  await expectNoSeriousA11yViolations(page, '«Безопасность», переименование ключа');
  await rename.getByRole('button', { name: 'Сохранить' }).click();
  await expect(item).toContainText('Рабочий ноутбук');
  await item.getByRole('button', { name: 'Удалить ключ «Рабочий ноутбук»' }).click();
  const remove = item.getByRole('form', { name: 'Удаление ключа «Рабочий ноутбук»' });
  await remove.getByLabel('Пароль для удаления').fill(u.password);
  await expectNoSeriousA11yViolations(page, '«Безопасность», удаление ключа');
  await remove.getByRole('button', { name: 'Удалить ключ' }).click();
  await expect(keys.getByRole('status')).toHaveText('Ключ доступа удалён');
  await expect(keys.getByTestId('passkey')).toHaveCount(0);
});
