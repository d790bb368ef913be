// Calls in real Chromium with fake camera and microphone, against the real server (serving the built client)
// and the embedded LiveKit-protocol media server, wired as `npm start` wires them.
import net from 'node:net';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import { type Sfu, startSfu } from '../server/sfu/index';
import type { TestServer } from '../tests/server/harness';
import { expectNoSeriousA11yViolations } from './a11y';
import { startAppServer } from './server';
import { createUser, type E2EUser, friendsWithConversation, signInContext } from './users';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...chromiumArgs, '--autoplay-policy=no-user-gesture-required'],
  },
});

let srv: TestServer;
let sfu: Sfu;
const contexts: BrowserContext[] = [];

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test.beforeAll(async () => {
  const port = await freePort();
  srv = await startAppServer({ sfu: { port, hostCandidates: ['127.0.0.1'], udpPortRange: null, publicUrl: null } });
  // As server/main.ts does: the media server checks tokens with the key and secret the token route signs with.
  sfu = await startSfu({
    port,
    host: '127.0.0.1',
    apiKey: srv.server.ctx.secrets.livekitApiKey,
    apiSecret: srv.server.ctx.secrets.livekitApiSecret,
    hostCandidates: ['127.0.0.1'],
  });
});
// Each test's browsers go away with it: idle callers slow the next test down on two shared cores.
test.afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
});
test.afterAll(async () => {
  await sfu?.close();
  await srv?.close();
});

/** Records every media element the page plays, so a test can ask which sounds are audible right now. */
const watchSounds = () => {
  const all = new Set<HTMLMediaElement>();
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    all.add(this);
    return play.call(this);
  };
  (window as unknown as { audible: () => { src: string; volume: number }[] }).audible = () =>
    [...all].filter((el) => !el.paused && !el.muted).map((el) => ({ src: el.src, volume: el.volume }));
};
type Audible = { src: string; volume: number }[];
const audible = (page: Page) => page.evaluate(() => (window as unknown as { audible: () => Audible }).audible());
/** The ring (incoming) and the quieter ring-back (outgoing) both play ring.wav. */
const ringing = async (page: Page) => (await audible(page)).some((s) => s.src.endsWith('/sounds/ring.wav') && s.volume > 0.5);
const ringingBack = async (page: Page) =>
  (await audible(page)).some((s) => s.src.endsWith('/sounds/ring.wav') && s.volume < 0.5);

async function signedInContext(browser: Browser, u: E2EUser): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: srv.url, permissions: ['camera', 'microphone'] });
  contexts.push(context);
  await signInContext(context, u);
  await context.addInitScript(watchSounds);
  return context;
}

async function openPage(context: BrowserContext, path: string, label: string): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[${label}] ${m.text()}`);
  });
  page.on('pageerror', (e) => console.log(`[${label}] page error: ${e.message}`));
  await page.goto(srv.url + path);
  // The realtime socket is up (the latency dot turns green) before anything depends on it.
  await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 15_000 });
  return page;
}

/** Width of the remote participants' decoded camera video in this page (0 while none has arrived). */
async function remoteVideoWidth(page: Page, scope: string): Promise<number> {
  return page.evaluate((sel) => {
    const videos = [...document.querySelectorAll<HTMLVideoElement>(`${sel} [data-lk-local-participant="false"] video`)];
    return Math.max(0, ...videos.map((v) => v.videoWidth));
  }, scope);
}

async function expectRemoteVideo(page: Page, scope: string, who: string): Promise<void> {
  await expect.poll(() => remoteVideoWidth(page, scope), { timeout: 30_000, message: `${who} decodes the other's video` }).toBeGreaterThan(0);
}

test.describe('/calls: a named room', () => {
  test('two browsers meet in demo-room, see each other, and go back to the form on leaving', async ({ browser }) => {
    const [anna, boris] = await Promise.all([createUser(srv.url, 'Анна', 'a'), createUser(srv.url, 'Борис', 'b')]);
    const a = await openPage(await signedInContext(browser, anna), '/calls', 'anna');
    const form = a.getByRole('form', { name: 'Подключиться к комнате' });
    await expect(form).toBeVisible();
    await expect(a.getByRole('textbox', { name: 'Комната' })).toHaveValue('demo-room');
    // The video server line: the fallback address on this host until a token names the real one.
    await expect(a.getByTestId('video-server')).toHaveText('ws://127.0.0.1:7880');
    // Scoped to the page itself: the shared layout around it is checked by its own tests.
    await expectNoSeriousA11yViolations(a, '/calls form', { include: '.calls-page' });

    await a.getByRole('button', { name: 'Войти' }).click();
    await expect(a.getByRole('toolbar', { name: 'Управление звонком' })).toBeVisible({ timeout: 20_000 });
    const b = await openPage(await signedInContext(browser, boris), '/calls', 'boris');
    await b.getByRole('button', { name: 'Войти' }).click();

    await expectRemoteVideo(a, '.calls-room', 'anna');
    await expectRemoteVideo(b, '.calls-room', 'boris');
    // Video and audio are on: both toggles pressed.
    for (const name of ['Микрофон', 'Камера']) await expect(a.getByRole('button', { name, exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expectNoSeriousA11yViolations(a, '/calls in the room', { include: '.calls-room' });

    await b.getByRole('button', { name: 'Выйти', exact: true }).last().click();
    await expect(b.getByRole('form', { name: 'Подключиться к комнате' })).toBeVisible();
    // The line now shows the server the token named.
    await expect(b.getByTestId('video-server')).toHaveText(sfu.url);
    // Device choices were saved locally with the library's key and defaults.
    const saved = await b.evaluate(() => JSON.parse(localStorage.getItem('lk-user-choices') ?? 'null'));
    expect(saved).toMatchObject({ videoEnabled: true, audioEnabled: true, videoDeviceId: 'default', audioDeviceId: 'default' });
  });

  test('a token without a server url gives the library’s error and the form again', async ({ browser }) => {
    const anna = await createUser(srv.url, 'Анна', 'a');
    const context = await signedInContext(browser, anna);
    await context.route('**/api/livekit/token', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...(await res.json()), url: '' } });
    });
    const a = await openPage(context, '/calls', 'anna');
    await a.getByRole('button', { name: 'Войти' }).click();
    await expect(a.getByRole('alert')).toHaveText('no livekit url provided');
    await expect(a.getByRole('button', { name: 'Войти' })).toBeEnabled();
  });
});
