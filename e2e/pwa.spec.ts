// The installable app (vite.config.ts manifest, src/sw/service-worker.ts): Chromium finds nothing missing for
// installation, the worker precaches the build, and its push handler shows a notification for a push delivered
// through the DevTools protocol.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from '@playwright/test';
import { chromiumArgs, fullChromiumPath } from '../playwright.config';
import { test as base, expect } from './fixtures';
import { signInContext } from './users';

/**
 * A browser with a profile on disk (Chromium never offers installing from an incognito context, Playwright's
 * default), signed in as a fresh user: the full Chromium, which installs apps and shows notifications.
 */
const test = base.extend<{ profile: BrowserContext }>({
  profile: async ({ createUser }, use) => {
    const a = await createUser('Анна Установка', 'pwa');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pwa-profile-'));
    const context = await chromium.launchPersistentContext(dir, {
      executablePath: fullChromiumPath,
      args: chromiumArgs,
      headless: true,
    });
    await signInContext(context, a);
    await use(context);
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  },
});

test('the manifest and the service worker make the app installable (no installability errors)', async ({
  srv,
  profile: context,
}) => {
  const page = await context.newPage();
  await page.goto(`${srv.url}/`);
  // The worker is registered after load and controls the page once it is active.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const manifest = await (await page.request.get(`${srv.url}/manifest.webmanifest`)).json();
  expect(manifest).toMatchObject({ name: 'Беседа', display: 'standalone', lang: 'ru', start_url: '/' });
  expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors).toEqual([]);
  const { url, errors } = await cdp.send('Page.getAppManifest');
  expect(url).toBe(`${srv.url}/manifest.webmanifest`);
  expect(errors).toEqual([]);

  // The precache holds the app shell and the chunks loaded on demand (the settings page, the call views).
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const urls: string[] = [];
    for (const n of names) for (const r of await (await caches.open(n)).keys()) urls.push(new URL(r.url).pathname);
    return urls;
  });
  expect(cached).toContain('/index.html');
  expect(cached.some((u) => /^\/assets\/SettingsPage-.*\.js$/.test(u))).toBe(true);
  expect(cached.some((u) => /^\/assets\/Conference-.*\.js$/.test(u))).toBe(true);
  expect(cached.some((u) => u.startsWith('/api/'))).toBe(false);
});

test('the service worker shows a notification for a push delivered through the DevTools protocol, with no tab open', async ({
  srv,
  profile: context,
}) => {
  await context.grantPermissions(['notifications'], { origin: srv.url });
  const page = await context.newPage();
  await page.goto(`${srv.url}/`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.get(`${srv.url}/`)).toBeTruthy();
  // The tab goes away: the push reaches the worker alone (a focused tab would make it stay quiet).
  const watcher = await context.newPage();
  await page.close();
  const wcdp = await context.newCDPSession(watcher);
  await wcdp.send('ServiceWorker.enable');
  const payload = {
    kind: 'message',
    conversationId: 'c-push',
    title: 'Борис',
    preview: 'Сообщение из пуша',
    count: 2,
    icon: null,
  };
  await wcdp.send('ServiceWorker.deliverPushMessage', {
    origin: srv.url,
    registrationId: registrations.get(`${srv.url}/`)!,
    data: JSON.stringify(payload),
  });
  // Read from inside the worker itself: a page of the app's origin opened to read them would be a visible, focused
  // window of the app, and a push the worker handles after it opened would rightly stay quiet.
  const shown = async () => {
    const worker = context.serviceWorkers().at(-1);
    if (!worker) return null;
    return worker
      .evaluate(async () =>
        (await (self as unknown as { registration: ServiceWorkerRegistration }).registration.getNotifications()).map(
          (n) => ({ title: n.title, body: n.body, tag: n.tag }),
        ),
      )
      .catch(() => null); // a worker stopped meanwhile: the next poll reads its successor
  };
  await expect.poll(shown).toEqual([{ title: 'Борис', body: '2 новых сообщения', tag: 'conv:c-push' }]);
});
