// A new build takes over on the next load (src/sw/service-worker.ts): pages come from the network first, so the next
// load is the new build's page; and as the only tab it lets the new worker (waiting behind the old one) take over at
// once. The "new build" here is the current one with a changed index.html and, as a real build would have, a
// service worker whose precache names the new index.html's revision.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect } from './fixtures';

/** The test's server serves a copy of the build, which the test then redeploys. */
const test = base.extend<{ clientDir: string }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  clientDir: async ({}, use) => {
    const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pwa-update-'));
    fs.cpSync(path.resolve('dist'), clientDir, { recursive: true });
    await use(clientDir);
    fs.rmSync(clientDir, { recursive: true, force: true });
  },
  privateServerOptions: async ({ clientDir }, use) => use({ clientDir }),
});

/** Deploys a "new build": index.html gains a marker; the worker's precache names the new revision. */
function deployNewBuild(clientDir: string) {
  const index = path.join(clientDir, 'index.html');
  fs.writeFileSync(
    index,
    fs.readFileSync(index, 'utf8').replace('<head>', '<head>\n    <meta name="build" content="2" />'),
  );
  for (const copy of ['index.html.br', 'index.html.gz']) fs.rmSync(path.join(clientDir, copy), { force: true });
  const sw = path.join(clientDir, 'service-worker.js');
  const text = fs.readFileSync(sw, 'utf8');
  const changed = text.replace(
    /\{"revision":"[0-9a-f]+","url":"index.html"\}/,
    '{"revision":"00000000000000000000000000000002","url":"index.html"}',
  );
  expect(changed).not.toBe(text);
  fs.writeFileSync(sw, changed);
}

test('the next load after a deploy is the new build, and its worker takes over', async ({
  clientDir,
  createUser,
  openSignedIn,
}) => {
  const { page } = await openSignedIn(await createUser('Анна Обновление', 'upd'));
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  const firstWorker = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return { controlled: navigator.serviceWorker.controller !== null, script: reg.active?.scriptURL };
  });
  expect(firstWorker.controlled).toBe(true);

  deployNewBuild(clientDir);
  // The browser notices the new worker (as it would on a later navigation); it installs and waits.
  await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    await reg.update();
    for (let i = 0; i < 100 && !reg.waiting; i++) await new Promise((r) => setTimeout(r, 100));
    if (!reg.waiting) throw new Error('the new worker did not install');
  });

  await page.reload();
  await expect(page.locator('meta[name="build"]')).toHaveAttribute('content', '2');
  await expect(page.getByRole('heading', { name: 'Чаты' })).toBeVisible();
  // The only tab: the new worker is active now, none waits, and its precache holds the new index.html (the
  // worker's activation runs on the browser's own schedule: a bound that a loaded machine does not break).
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration();
          const names = await caches.keys();
          let revision = '';
          for (const n of names)
            for (const r of await (await caches.open(n)).keys())
              if (new URL(r.url).pathname === '/index.html')
                revision = new URL(r.url).searchParams.get('__WB_REVISION__') ?? '';
          return { waiting: reg?.waiting !== null && reg?.waiting !== undefined, revision };
        }),
      { timeout: 20_000 },
    )
    .toEqual({ waiting: false, revision: '00000000000000000000000000000002' });
});
