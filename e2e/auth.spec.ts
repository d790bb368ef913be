// Sign-in and registration: real Chromium against the real server serving the built client.
import type { Page } from '@playwright/test';
import type { Clock } from '../server/clock';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall } from './users';

const unique = (p: string) => `${p}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = 'correct horse battery';

async function register(page: Page, base: string, username: string, displayName: string) {
  await page.goto(`${base}/auth/register`);
  await page.getByLabel('Никнейм').fill(username);
  await page.getByLabel('Отображаемое имя').fill(displayName);
  await page.getByLabel('Пароль').fill(PASSWORD);
  await page.getByRole('button', { name: 'Создать аккаунт' }).click();
  await expect(page).toHaveURL(`${base}/auth`);
}

/** An account made through the API (registration is not what the test looks at), and the sign-in page open. */
async function registered(page: Page, base: string, username: string, displayName: string) {
  await apiCall(base, 'POST', '/api/auth/register', { username, displayName, password: PASSWORD });
  await page.goto(`${base}/auth`);
}

async function signIn(page: Page, username: string, password = PASSWORD) {
  await page.getByLabel('Никнейм').fill(username);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
}

test.describe('sign-in and registration', () => {
  test('a new user registers, signs in, lands on /, stays signed in after a reload, signs out', async ({
    srv,
    page,
  }) => {
    const username = unique('anna');
    await register(page, srv.url, username, 'Анна Петрова');
    await expect(page.getByRole('status')).toContainText('Аккаунт создан');
    await expect(page.getByLabel('Никнейм')).toHaveValue(username);

    await signIn(page, username);
    await expect(page).toHaveURL(`${srv.url}/`);
    await expect(page.getByRole('banner').getByText('Анна Петрова')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Разделы' })).toBeVisible();
    // The ping shows a latency in milliseconds.
    await expect(page.getByTestId('latency')).toContainText(/\d+ мс/);
    // The realtime socket connected with the access token (the dot turns green).
    await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 15_000 });

    await page.reload();
    await expect(page).toHaveURL(`${srv.url}/`);
    await expect(page.getByRole('banner').getByText('Анна Петрова')).toBeVisible();

    await page.getByRole('link', { name: 'Контакты' }).click();
    await expect(page).toHaveURL(`${srv.url}/contacts`);

    await page.getByRole('button', { name: 'Выйти' }).click();

    await page.getByRole('alertdialog', { name: 'Выйти из аккаунта?' }).getByRole('button', { name: 'Выйти' }).click();
    await expect(page).toHaveURL(`${srv.url}/auth`);
    await expect(page.getByRole('button', { name: 'Войти', exact: true })).toBeVisible();
    // Signed out: the app is closed again, and the revoked session is not restored by a reload.
    await page.goto(`${srv.url}/settings`);
    await expect(page).toHaveURL(`${srv.url}/auth`);
  });

  test('the registration form, its password hint shown and the password field focused, has no serious axe violations', async ({
    srv,
    page,
  }) => {
    await page.goto(`${srv.url}/auth/register`);
    const password = page.getByLabel('Пароль');
    await password.focus();
    await password.fill('коротк');
    const hint = page.locator('#register-password-hint');
    await expect(hint).toBeVisible();
    await expect(password).toHaveAccessibleDescription(await hint.innerText());
    // The hint is small grey text: it must keep AA contrast (4.5:1) on the card (color-contrast is one of axe's rules).
    await expectNoSeriousA11yViolations(page, 'registration form');
  });

  test('the sign-in form has no serious axe violations', async ({ srv, page }) => {
    await page.goto(`${srv.url}/auth`);
    await expect(page.getByRole('button', { name: 'Войти', exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'sign-in form');
  });

  test('a taken name shows the server message on the registration form', async ({ srv, page }) => {
    const username = unique('boris');
    await registered(page, srv.url, username, 'Борис');
    await page.goto(`${srv.url}/auth/register`);
    await page.getByLabel('Никнейм').fill(username);
    await page.getByLabel('Отображаемое имя').fill('Борис');
    await page.getByLabel('Пароль').fill(PASSWORD);
    await page.getByRole('button', { name: 'Создать аккаунт' }).click();
    await expect(page.getByRole('alert')).toHaveText('Этот никнейм уже занят');
  });

  test("a wrong password shows 'Неверные данные'", async ({ srv, page }) => {
    const username = unique('vera');
    await registered(page, srv.url, username, 'Вера');
    // Hold the sign-in request to see the busy button.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await signIn(page, username, 'not the password');
    const busy = page.getByRole('button', { name: 'Входим…' });
    await expect(busy).toBeDisabled();
    release();
    await expect(page.getByRole('alert')).toHaveText('Неверные данные');
    await expect(page).toHaveURL(`${srv.url}/auth`);
  });

  test('opening /contacts while signed out returns there after sign-in', async ({ srv, page }) => {
    const username = unique('gleb');
    await registered(page, srv.url, username, 'Глеб');
    await page.goto(`${srv.url}/contacts`);
    await expect(page).toHaveURL(`${srv.url}/auth`);
    await signIn(page, username);
    await expect(page).toHaveURL(`${srv.url}/contacts`);
    await expect(page.getByRole('heading', { name: 'Контакты' })).toBeVisible();
    // The history entry of /auth was replaced: going back does not show the sign-in form again.
    await page.goBack();
    await expect(page).not.toHaveURL(`${srv.url}/auth`);
  });
});

test.describe('token refresh', () => {
  // The server's rules run a minute ahead when the test says so: the stored access token expires without waiting.
  const ahead = { ms: 0 };
  const clock: Clock = {
    now: () => Date.now() + ahead.ms,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
  };
  test.use({ privateServerOptions: { accessTokenTtlSec: 60, clock } });

  test('an expired access token is refreshed transparently', async ({ srv, page, context }) => {
    const username = unique('dina');
    await registered(page, srv.url, username, 'Дина');
    await signIn(page, username);
    await expect(page).toHaveURL(`${srv.url}/`);
    // While a tab is open its socket keeps the tokens fresh (session:expiring); close it, and let the stored
    // access token expire before the next visit.
    await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 15_000 });
    const stored = (p: typeof page) => p.evaluate(() => JSON.parse(localStorage.getItem('beseda.session') ?? 'null'));
    const before = await stored(page);
    await page.close();
    ahead.ms += 61_000; // the stored access token is now expired

    const next = await context.newPage();
    const statuses: string[] = [];
    next.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/status/me' || path === '/api/auth/refresh') statuses.push(`${path} ${r.status()}`);
    });
    const socketTokens: string[] = [];
    next.on('websocket', (ws) => {
      const token = new URL(ws.url()).searchParams.get('token');
      if (ws.url().includes('/socket.io/') && token) socketTokens.push(token);
    });
    const refreshed = next.waitForResponse((r) => r.url().endsWith('/api/auth/refresh') && r.status() === 200);
    await next.goto(`${srv.url}/`); // refetches own info with the expired token
    await refreshed;
    await expect(next).toHaveURL(`${srv.url}/`);
    await expect(next.getByText('Дина').first()).toBeVisible();
    await expect.poll(() => statuses.includes('/api/status/me 200')).toBe(true);
    expect(statuses).toContain('/api/status/me 401');
    const after = await stored(next);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.user.username).toBe(username);
    // The socket starts with the stored (expired) token and ends up live: the server refuses an expired token, so
    // the live connection authenticated with the refreshed one. Either the first handshake was refused and a new
    // websocket carried the fresh token, or (socket.io-client loads on demand) the fresh token reached the socket's
    // auth before its first handshake was sent; the URL query of that websocket keeps the old token then.
    await expect(next.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 15_000 });
    expect(socketTokens[0]).toBe(before.accessToken);
    if (socketTokens.length > 1) expect(socketTokens.at(-1)).not.toBe(before.accessToken);
  });
});
