// The organisation's sign-in in real Chromium (docs/behaviour.md §10.41): the app's server started with OIDC_* settings
// pointing at a real OpenID Connect provider (oidc-provider) this spec starts on loopback. «Войти через …» goes to the
// provider and back; a new person creates an account, an existing member links theirs with the password once; with
// password sign-in turned off the form hides behind «Вход для администратора»; a refused answer shows its message.
// Axe on each new screen in both themes.
import type { Page } from '@playwright/test';
import type { TestServer } from '../tests/server/harness';
import { startTestProvider, type TestProvider } from '../tests/server/oidc-test-provider';
import { expectNoSeriousA11yViolations } from './a11y';
import { defaultServerOptions, expect, test } from './fixtures';
import { startAppServer } from './server';
import { apiCall, createUser, type E2EUser } from './users';

const NAME = 'Тестовый вход';
let op: TestProvider;
let app: TestServer;
let admin: E2EUser;

test.beforeAll(async () => {
  op = await startTestProvider();
  app = await startAppServer({
    ...defaultServerOptions,
    oidc: { issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, name: NAME },
  });
  op.redirectUris.push(`${app.url}/api/auth/oidc/callback`);
  // The first account administers the server.
  admin = await createUser(app.url, 'Администратор', 'admin');
});
test.afterAll(async () => {
  await app?.close();
  await op?.close();
});

const unique = (p: string) => `${p}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A person at the provider, whom its interaction signs in next. */
function person(name: string, preferred: string): string {
  const sub = unique('sub-');
  op.people.set(sub, { preferred_username: preferred, name });
  op.nextSubject = sub;
  return sub;
}

async function signedInAs(page: Page, displayName: string) {
  await expect(page).toHaveURL(`${app.url}/`);
  await expect(page.getByRole('banner').getByText(displayName)).toBeVisible();
}

test('a new person signs in through the provider and creates an account', async ({ page }) => {
  person('Ольга Петрова', unique('olga'));
  await page.goto(`${app.url}/auth`);
  const start = page.getByRole('button', { name: `Войти через ${NAME}` });
  await expect(start).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'sign-in with the provider');
  await start.click();

  await expect(page.getByRole('heading', { name: 'Первый вход, Ольга Петрова' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/oidc\?/);
  await expectNoSeriousA11yViolations(page, 'first sign-in: create or link');
  await page.getByRole('button', { name: 'Создать учётную запись' }).click();
  await signedInAs(page, 'Ольга Петрова');

  await page.goto(`${app.url}/settings`);
  const methods = page.getByRole('region', { name: 'Способы входа' });
  await expect(methods.getByText(`Через «${NAME}»`)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'settings: sign-in methods');
});

test('a member links their account with the password once, then signs in through the provider', async ({ page }) => {
  const member = await createUser(app.url, 'Мария', 'maria');
  person('Мария из организации', member.username);
  await page.goto(`${app.url}/auth`);
  await page.getByRole('button', { name: `Войти через ${NAME}` }).click();
  const link = page.getByRole('form', { name: 'Связать с существующей учётной записью' });
  await link.getByLabel('Никнейм').fill(member.username);
  await link.getByLabel('Пароль').fill('wrong password');
  await link.getByRole('button', { name: 'Связать и войти' }).click();
  await expect(page.getByRole('alert')).toHaveText('Неверный никнейм или пароль');
  await link.getByLabel('Пароль').fill(member.password);
  await link.getByRole('button', { name: 'Связать и войти' }).click();
  await signedInAs(page, 'Мария');

  // Signed out, the provider alone signs her in again.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${app.url}/auth`);
  await page.getByRole('button', { name: `Войти через ${NAME}` }).click();
  await signedInAs(page, 'Мария');
});

test('with password sign-in off the form hides behind «Вход для администратора»', async ({ page }) => {
  await apiCall(app.url, 'PATCH', '/api/admin/settings', { passwordSignIn: false }, admin.accessToken);
  try {
    await page.goto(`${app.url}/auth`);
    await expect(page.getByRole('button', { name: `Войти через ${NAME}` })).toBeVisible();
    await expect(page.getByLabel('Никнейм')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'sign-in without passwords');
    await page.getByRole('button', { name: 'Вход для администратора' }).click();
    await page.getByLabel('Никнейм').fill(admin.username);
    await page.getByLabel('Пароль').fill(admin.password);
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await signedInAs(page, 'Администратор');
  } finally {
    await apiCall(app.url, 'PATCH', '/api/admin/settings', { passwordSignIn: true }, admin.accessToken);
  }
});

test('an answer that is not this browser’s round trip is refused with a message and a way back', async ({ page }) => {
  await page.goto(`${app.url}/api/auth/oidc/callback?code=forged&state=forged`);
  await expect(page.getByRole('heading', { name: 'Вход не удался' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Вход устарел или начат в другой вкладке. Начните вход заново');
  await expectNoSeriousA11yViolations(page, 'provider sign-in refused');
  person('Игорь', unique('igor'));
  await page.getByRole('button', { name: 'Начать вход заново' }).click();
  await expect(page.getByRole('heading', { name: 'Первый вход, Игорь' })).toBeVisible();
});
