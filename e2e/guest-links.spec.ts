// Guest links to calls in real Chromium with fake camera and microphone, against the real server (serving the built
// client) and the embedded media server (docs/behaviour.md §10.40): a member invites from the call, a guest in a
// fresh browser context (no account) knocks, waits in the lobby, is let in, sees and is seen, hears and is heard, is
// removed and is told so; axe on the guest page and the lobby in both themes.
import type { BrowserContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect as baseExpect, type E2EUser, mediaTest } from './fixtures';
import { signInContext } from './users';

const expect = baseExpect.configure({ timeout: 15_000 });

const test = mediaTest.extend<{ callContext: (u: E2EUser | null) => Promise<BrowserContext> }>({
  callContext: async ({ srv, newContext }, use) => {
    await use(async (u) => {
      const context = await newContext({ baseURL: srv.url, permissions: ['camera', 'microphone'] });
      if (u) await signInContext(context, u);
      return context;
    });
  },
});

async function openPage(context: BrowserContext, path: string, label: string, live = true): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`[${label}] page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[${label}] ${m.text()}`);
  });
  await page.goto(path);
  if (live) await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 30_000 });
  return page;
}

/** Width of the remote participants' decoded camera video under `scope` (0 while none has arrived). */
const remoteVideoWidth = (page: Page, scope: string) =>
  page.evaluate((sel) => {
    const videos = [...document.querySelectorAll<HTMLVideoElement>(`${sel} [data-lk-local-participant="false"] video`)];
    return Math.max(0, ...videos.map((v) => v.videoWidth));
  }, scope);

/** Bytes of remote audio this page has received (the fake microphone's tone), from WebRTC's own statistics. */
const audioBytesIn = (page: Page) =>
  page.evaluate(async () => {
    const pcs = (window as unknown as { __pcs?: RTCPeerConnection[] }).__pcs ?? [];
    let bytes = 0;
    for (const pc of pcs) {
      const stats = await pc.getStats();
      stats.forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'audio') bytes += s.bytesReceived ?? 0;
      });
    }
    return bytes;
  });

/** Keeps every peer connection the page makes, to read its statistics. */
const keepPeerConnections = () => {
  const Original = window.RTCPeerConnection;
  const all: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = all;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      all.push(this);
    }
  } as typeof RTCPeerConnection;
};

test('a member invites by link; a guest knocks, is let in, sees and hears both ways, is removed and cannot come back', async ({
  friends: { a, b, conversationId },
  callContext,
}) => {
  // Three browsers with camera and microphone on a shared 2-core machine.
  test.setTimeout(300_000);
  const ctxA = await callContext(a);
  await ctxA.addInitScript(keepPeerConnections);
  const pa = await openPage(ctxA, '/', 'anna');
  const pb = await openPage(await callContext(b), '/', 'boris');
  await pa.locator(`[data-conversation-id="${conversationId}"]`).first().click();
  await pa.getByRole('button', { name: 'Позвонить с видео', exact: true }).click();
  await pb.getByRole('button', { name: 'Ответить с видео' }).click();
  await expect(pa.getByRole('heading', { name: 'Звонок', exact: true })).toBeVisible({ timeout: 20_000 });

  await pa.getByRole('button', { name: 'Пригласить по ссылке' }).click();
  const link = await pa.getByTestId('guest-link').inputValue();
  expect(link).toMatch(/\/g\/[\w-]{24}$/);

  // A fresh browser: no account, no app.
  const ctxG = await callContext(null);
  await ctxG.addInitScript(keepPeerConnections);
  const pg = await openPage(ctxG, new URL(link).pathname, 'guest', false);
  await expect(pg.getByRole('heading', { name: `${a.displayName} приглашает вас в звонок` })).toBeVisible();
  await expect(pg.locator('.lk-prejoin video')).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousA11yViolations(pg, 'guest page');
  await pg.getByPlaceholder('Ваше имя').fill('Бабушка');
  await pg.getByRole('button', { name: 'Попросить войти' }).click();
  await expect(pg.getByRole('status').filter({ hasText: 'Ждём, пока вас впустят' })).toBeVisible();
  await expectNoSeriousA11yViolations(pg, 'lobby');

  // Both members are asked; one lets the guest in.
  await expect(pb.getByText('Гость Бабушка хочет войти')).toBeVisible();
  await pa.getByText('Гость Бабушка хочет войти').waitFor();
  await pa.getByRole('button', { name: 'Впустить' }).click();
  await expect(pb.getByText('Гость Бабушка хочет войти')).toHaveCount(0);

  // Seen and heard both ways; marked «гость» for the members.
  await expect(pg.locator('.guest-call'))
    .toBeVisible({ timeout: 30_000 })
    .catch(async (err) => {
      console.log(`[guest page] ${await pg.locator('body').innerText()}`);
      throw err;
    });
  await expect.poll(() => remoteVideoWidth(pg, '.guest-call'), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect
    .poll(() => pa.locator('.call-overlay [data-guest="true"] video').evaluate((v: HTMLVideoElement) => v.videoWidth), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  await expect(pa.locator('.call-overlay [data-guest="true"]').first()).toContainText('гость');
  await expect
    .poll(() => audioBytesIn(pg), { timeout: 30_000, message: 'the guest hears the members' })
    .toBeGreaterThan(1000);
  await expect
    .poll(() => audioBytesIn(pa), { timeout: 30_000, message: 'the members hear the guest' })
    .toBeGreaterThan(1000);

  // Removed: the guest is told so and the page does not go back into the call.
  await pa.getByRole('button', { name: 'Удалить из звонка: Бабушка' }).click();
  await expect(pg.getByTestId('guest-outcome')).toHaveText('Вас удалили из звонка');
  await expect(pa.locator('.call-overlay [data-guest="true"]')).toHaveCount(0);
  await expect(pg.locator('.guest-call')).toHaveCount(0);
});
