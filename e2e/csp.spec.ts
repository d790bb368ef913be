// The built app under its Content-Security-Policy, in real Chromium: the page loads, signs in and opens its socket
// with no violation reported, and a call (livekit-client to the embedded media server, camera, microphone, blob:
// media) connects under the same policy. There is no call UI yet, so the call runs in the SFU test page
// (e2e/sfu-page), which this spec serves through the app server itself, next to the built client: it gets
// exactly the headers the app page gets (the spec checks that), from the app's own origin.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { build } from 'esbuild';
import { client } from '../tests/server/harness';
import { test as base, expect } from './fixtures';

const CALL_PAGE = '/csp-call/index.html';
const PASSWORD = 'correct horse battery';

const test = base.extend<object, { cspClientDir: string }>({
  /** The built client plus the call page, bundled beside it: one directory served by the app server. */
  cspClientDir: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csp-client-'));
      fs.cpSync(path.resolve('dist'), clientDir, { recursive: true });
      const callDir = path.join(clientDir, 'csp-call');
      fs.mkdirSync(callDir);
      await build({
        entryPoints: [path.resolve('e2e/sfu-page/main.ts')],
        bundle: true,
        format: 'esm',
        target: 'es2022',
        outfile: path.join(callDir, 'app.js'),
        logLevel: 'warning',
      });
      fs.copyFileSync(path.resolve('e2e/sfu-page/index.html'), path.join(callDir, 'index.html'));
      await use(clientDir);
      fs.rmSync(clientDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  serverOptions: [async ({ cspClientDir }, use) => use({ clientDir: cspClientDir }), { scope: 'worker' }],
  // The media server as `npm start` runs it: its own port (named in the CSP), the app's LiveKit key and secret.
  withMediaServer: [true, { scope: 'worker' }],
});

interface Watched {
  page: Page;
  /** securitypolicyviolation events and CSP console errors seen so far. */
  violations(): Promise<string[]>;
}

async function watchedPage(context: BrowserContext): Promise<Watched> {
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) consoleErrors.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`),
    );
  });
  return {
    page,
    violations: async () => [
      ...consoleErrors,
      ...(await page
        .evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])
        .catch(() => [])),
    ],
  };
}

test('the app page loads, signs in and opens its socket under the CSP with no violation', async ({
  srv,
  newContext,
}) => {
  const api = client(srv.url);
  const user = await api.user('csp');
  const context = await newContext();
  const { page, violations } = await watchedPage(context);

  const res = await page.goto(`${srv.url}/`);
  const csp = res?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(res?.headers()['x-content-type-options']).toBe('nosniff');

  await expect(page).toHaveURL(`${srv.url}/auth`);
  await page.getByLabel('Никнейм').fill(user.username);
  await page.getByLabel('Пароль').fill(PASSWORD);
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(page).toHaveURL(`${srv.url}/`);
  // The realtime socket (websocket to the app's own origin) is live.
  await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 15_000 });
  await page.getByRole('link', { name: 'Контакты' }).click();
  await page.getByRole('link', { name: 'Настройки' }).click();
  // The settings page drawn and nothing more on the wire: whatever it loads has loaded (or been refused).
  await expect(page).toHaveURL(`${srv.url}/settings`);
  await expect(page.getByRole('switch').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await violations()).toEqual([]);
});

test('a call connects under exactly the app page’s CSP: media both ways, no violation', async ({ srv, newContext }) => {
  const api = client(srv.url);
  const [ann, ben] = await Promise.all([api.user('ann'), api.user('ben')]);
  const appHeaders = (await fetch(`${srv.url}/`)).headers;
  const callHeaders = (await fetch(`${srv.url}${CALL_PAGE}`)).headers;
  for (const h of [
    'content-security-policy',
    'x-content-type-options',
    'cross-origin-opener-policy',
    'referrer-policy',
  ]) {
    expect(callHeaders.get(h), h).toBe(appHeaders.get(h));
  }

  const join = async (user: typeof ann) => {
    const context = await newContext({ permissions: ['camera', 'microphone'] });
    const watched = await watchedPage(context);
    await watched.page.goto(`${srv.url}${CALL_PAGE}`);
    // The token and the media server's URL come from the app's own route, as the app will get them.
    const { token, url } = (await api.post('/api/livekit/token', { room: 'csp-call' }, user.accessToken)).body;
    await watched.page.evaluate(
      ([u, t]) => (window as unknown as { sfu: { join(u: string, t: string): Promise<unknown> } }).sfu.join(u, t),
      [url, token] as const,
    );
    return watched;
  };
  const a = await join(ann);
  const b = await join(ben);

  const videoFrom = (w: Watched, identity: string) =>
    w.page.evaluate(async (id) => {
      const got = await (
        window as unknown as {
          sfu: { received(): Promise<Array<{ identity: string; kind: string; framesDecoded: number }>> };
        }
      ).sfu.received();
      return got.some((r) => r.identity === id && r.kind === 'video' && r.framesDecoded > 0);
    }, identity);
  await expect.poll(() => videoFrom(a, ben.user.id), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => videoFrom(b, ann.user.id), { timeout: 30_000 }).toBe(true);
  expect(await a.violations()).toEqual([]);
  expect(await b.violations()).toEqual([]);
});
