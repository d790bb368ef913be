// Calls in real Chromium with fake camera and microphone, against the real server (serving the built client)
// and the embedded LiveKit-protocol media server, wired as `npm start` wires them.
import type { BrowserContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect as baseExpect, type E2EUser, mediaTest } from './fixtures';
import { signInContext } from './users';

// Media and sockets on a shared 2-core machine: give each assertion more than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

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
const ringing = async (page: Page) =>
  (await audible(page)).some((s) => s.src.endsWith('/sounds/ring.wav') && s.volume > 0.5);
const ringingBack = async (page: Page) =>
  (await audible(page)).some((s) => s.src.endsWith('/sounds/ring.wav') && s.volume < 0.5);

/** `callContext(u)`: a context signed in as `u`, camera and microphone allowed, recording the sounds it plays. */
const test = mediaTest.extend<{ callContext: (u: E2EUser) => Promise<BrowserContext> }>({
  callContext: async ({ srv, newContext }, use) => {
    await use(async (u) => {
      const context = await newContext({ baseURL: srv.url, permissions: ['camera', 'microphone'] });
      await signInContext(context, u);
      await context.addInitScript(watchSounds);
      return context;
    });
  },
});

async function openPage(context: BrowserContext, path: string, label: string): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[${label}] ${m.text()}`);
  });
  page.on('pageerror', (e) => console.log(`[${label}] page error: ${e.message}`));
  await page.goto(path);
  // The realtime socket is up (the latency dot turns green) before anything depends on it.
  await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 30_000 });
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
  await expect
    .poll(() => remoteVideoWidth(page, scope), { timeout: 30_000, message: `${who} decodes the other's video` })
    .toBeGreaterThan(0);
}

test.describe('/calls: a named room', () => {
  test('two browsers meet in demo-room, see each other, and go back to the form on leaving', async ({
    createUser,
    callContext,
    mediaServer,
  }) => {
    const [anna, boris] = await Promise.all([createUser('Анна', 'a'), createUser('Борис', 'b')]);
    const a = await openPage(await callContext(anna), '/calls', 'anna');
    const form = a.getByRole('form', { name: 'Подключиться к комнате' });
    await expect(form).toBeVisible();
    await expect(a.getByRole('textbox', { name: 'Комната' })).toHaveValue('demo-room');
    // The video server line: the address the server hands out (the media server's own port), before any token.
    await expect(a.getByTestId('video-server')).toHaveText(mediaServer.url);
    // Scoped to the page itself: the shared layout around it is checked by its own tests.
    await expectNoSeriousA11yViolations(a, '/calls form');

    await a.getByRole('button', { name: 'Войти' }).click();
    await expect(a.getByRole('toolbar', { name: 'Управление звонком' })).toBeVisible({ timeout: 20_000 });
    const b = await openPage(await callContext(boris), '/calls', 'boris');
    await b.getByRole('button', { name: 'Войти' }).click();

    await expectRemoteVideo(a, '.calls-room', 'anna');
    await expectRemoteVideo(b, '.calls-room', 'boris');
    // Video and audio are on: both toggles pressed.
    for (const name of ['Микрофон', 'Камера'])
      await expect(a.getByRole('button', { name, exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expectNoSeriousA11yViolations(a, '/calls in the room');

    await b.getByRole('button', { name: 'Выйти', exact: true }).last().click();
    await expect(b.getByRole('form', { name: 'Подключиться к комнате' })).toBeVisible();
    // The line now shows the server the token named.
    await expect(b.getByTestId('video-server')).toHaveText(mediaServer.url);
    // Device choices were saved locally with the library's key and defaults.
    const saved = await b.evaluate(() => JSON.parse(localStorage.getItem('lk-user-choices') ?? 'null'));
    expect(saved).toMatchObject({
      videoEnabled: true,
      audioEnabled: true,
      videoDeviceId: 'default',
      audioDeviceId: 'default',
    });
  });

  test('a token without a server url says so in Russian (never the library’s English) and shows the form again', async ({
    createUser,
    callContext,
  }) => {
    const anna = await createUser('Анна', 'a');
    const context = await callContext(anna);
    await context.route('**/api/livekit/token', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...(await res.json()), url: '' } });
    });
    const a = await openPage(context, '/calls', 'anna');
    await a.getByRole('button', { name: 'Войти' }).click();
    await expect(a.getByRole('alert')).toHaveText('Не удалось подключиться к комнате');
    await expect(a.getByText('no livekit url provided')).toHaveCount(0);
    await expect(a.getByRole('button', { name: 'Войти' })).toBeEnabled();
  });
});

/** Opens the conversation in the chats list and presses the header's call button (the chats page's). */
async function callFrom(page: Page, conversationId: string, video: boolean): Promise<void> {
  await page.locator(`[data-conversation-id="${conversationId}"]`).first().click();
  await page.getByRole('button', { name: video ? 'Позвонить с видео' : 'Позвонить', exact: true }).click();
}

const incomingDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Входящий аудио/видео звонок' });
const callOverlay = (page: Page) => page.getByRole('dialog', { name: /Звонок|Вызов/ });

test.describe('calls in a conversation', () => {
  test('A calls B with video: both of B’s tabs ring, B answers in one, video both ways, in-call chat, B hangs up', async ({
    friends: { a, b, conversationId },
    callContext,
  }) => {
    const pa = await openPage(await callContext(a), '/', 'anna');
    const ctxB = await callContext(b);
    const pb = await openPage(ctxB, '/', 'boris');
    const pb2 = await openPage(ctxB, '/', 'boris-tab2');

    await callFrom(pa, conversationId, true);
    await expect(pa.getByRole('heading', { name: 'Вызов… ждём ответа' })).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => ringingBack(pa), { message: 'the caller hears the ring-back' }).toBe(true);

    // Every tab of the callee rings, showing who calls.
    for (const page of [pb, pb2]) {
      await expect(incomingDialog(page)).toBeVisible();
      await expect(incomingDialog(page)).toContainText(a.displayName);
      await expect(incomingDialog(page)).toContainText('Видеозвонок');
      await expect.poll(() => ringing(page), { message: 'the callee’s tab rings' }).toBe(true);
    }
    await expectNoSeriousA11yViolations(pb, 'incoming-call dialog');

    // Answering in one tab stops the other.
    await pb.getByRole('button', { name: 'Ответить с видео' }).click();
    await expect(incomingDialog(pb2)).toHaveCount(0);
    await expect.poll(() => ringing(pb2)).toBe(false);
    await expect.poll(() => ringing(pb)).toBe(false);
    await expect(callOverlay(pb2)).toHaveCount(0);

    await expect(pa.getByRole('heading', { name: 'Звонок', exact: true })).toBeVisible();
    await expect.poll(() => ringingBack(pa)).toBe(false);
    await expectRemoteVideo(pa, '.call-overlay', 'anna');
    await expectRemoteVideo(pb, '.call-overlay', 'boris');
    const box = await pa.locator('.call-overlay').boundingBox();
    const viewport = pa.viewportSize()!;
    expect(Math.round(box!.width)).toBe(Math.round(Math.min(viewport.width * 0.9, 1200)));
    expect(Math.round(box!.height)).toBe(Math.round(viewport.height * 0.8));
    await expectNoSeriousA11yViolations(pa, 'call overlay');

    // A chat message in the call: the other side sees the unread badge until it opens the chat.
    await pa.getByRole('button', { name: 'Чат', exact: true }).click();
    await callOverlay(pa).getByRole('textbox', { name: 'Сообщение в чат звонка' }).fill('Слышно хорошо?');
    await pa.keyboard.press('Enter');
    await expect(pb.getByTestId('call-unread')).toHaveText('1');
    await pb.getByRole('button', { name: 'Чат, непрочитанных: 1' }).click();
    await expect(pb.getByRole('complementary', { name: 'Чат звонка' })).toContainText('Слышно хорошо?');
    await expect(pb.getByTestId('call-unread')).toHaveCount(0);
    await expectNoSeriousA11yViolations(pb, 'call overlay with chat');

    // B hangs up: both overlays close.
    await pb.getByRole('button', { name: 'Завершить звонок' }).click();
    await expect(callOverlay(pb)).toHaveCount(0);
    await expect(callOverlay(pa)).toHaveCount(0, { timeout: 15_000 });
  });

  test('declining from the keyboard closes the caller’s call with a notice; the caller can cancel while it rings', async ({
    friends: { a, b, conversationId },
    callContext,
  }) => {
    const pa = await openPage(await callContext(a), '/', 'anna');
    const pb = await openPage(await callContext(b), '/', 'boris');

    await callFrom(pa, conversationId, false);
    await expect(incomingDialog(pb)).toContainText('Аудиозвонок');
    // The dialog takes focus; Tab reaches 'Отклонить', Enter presses it.
    await expect(incomingDialog(pb)).toBeFocused();
    await pb.keyboard.press('Tab');
    await expect(pb.getByRole('button', { name: 'Отклонить' })).toBeFocused();
    await pb.keyboard.press('Enter');
    await expect(incomingDialog(pb)).toHaveCount(0);
    await expect(callOverlay(pa)).toHaveCount(0);
    await expect(pa.getByRole('status').filter({ hasText: 'Собеседник отклонил звонок' })).toBeVisible();
    await expectNoSeriousA11yViolations(pa, 'call notice');
    await pa.getByRole('button', { name: 'Закрыть уведомление' }).click();

    // Cancelling while it rings closes the callee's dialog.
    await pa.getByRole('button', { name: 'Позвонить', exact: true }).click();
    await expect(incomingDialog(pb)).toBeVisible();
    await pa.getByRole('button', { name: 'Отменить вызов' }).click();
    await expect(callOverlay(pa)).toHaveCount(0);
    await expect(incomingDialog(pb)).toHaveCount(0);
    await expect.poll(() => ringing(pb)).toBe(false);
  });

  test('nobody answers for 25 s (the callee’s clock controlled): the callee’s dialog dismisses itself and the caller hears a decline', async ({
    friends: { a, b, conversationId },
    callContext,
  }) => {
    const ctxB = await callContext(b);
    await ctxB.clock.install();
    const pa = await openPage(await callContext(a), '/', 'anna');
    const pb = await openPage(ctxB, '/', 'boris');
    // B's clock stops before the call rings, so that only the test moves it across the 25-s ring: running in real
    // time, it went on between the ring's start, the check that the dialog shows and the 24-s jump, and on a loaded
    // machine that can take up the 1 s the jump leaves before the ring times out.
    await pb.clock.pauseAt(await pb.evaluate(() => Date.now() + 1_000));

    await callFrom(pa, conversationId, true);
    await expect(incomingDialog(pb)).toBeVisible();
    await pb.clock.fastForward(24_000);
    await expect(incomingDialog(pb)).toBeVisible();
    await pb.clock.fastForward(1_000);
    await expect(incomingDialog(pb)).toHaveCount(0);
    await expect(callOverlay(pa)).toHaveCount(0);
    await expect(pa.getByRole('status').filter({ hasText: 'Собеседник отклонил звонок' })).toBeVisible();
  });

  test('a call to someone with no open tab ends at once with a clear message', async ({
    friends: { a, conversationId },
    callContext,
  }) => {
    const pa = await openPage(await callContext(a), '/', 'anna');
    await callFrom(pa, conversationId, true);
    await expect(pa.getByRole('status').filter({ hasText: 'Собеседник не в сети' })).toBeVisible();
    await expect(callOverlay(pa)).toHaveCount(0);
    await expect.poll(() => ringingBack(pa)).toBe(false);
  });
});

/**
 * Why each control of the call is not usable here (outside the window, or covered at its centre); empty when all
 * are: the bar's buttons and the header's end button.
 */
const unusableControls = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector('[role="toolbar"][aria-label="Управление звонком"]');
    const controls = [
      ...(bar?.querySelectorAll<HTMLElement>('button') ?? []),
      ...document.querySelectorAll<HTMLElement>('.call-overlay-bar button'),
    ];
    if (controls.length < 7) return [`only ${controls.length} controls`];
    const problems: string[] = [];
    for (const el of controls) {
      const name = el.getAttribute('aria-label') ?? el.textContent ?? '?';
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) problems.push(`${name}: not shown`);
      else if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight)
        problems.push(`${name}: outside the window (${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight})`);
      else {
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!hit || !el.contains(hit)) problems.push(`${name}: covered by ${hit?.className || hit?.tagName}`);
      }
    }
    return problems;
  });

test.describe('the call overlay at any size', () => {
  test('every control of the call is in the window and clickable from a 360×640 phone to 1920×1080, with or without the guests’ door, in both themes', async ({
    friends: { a, b, conversationId },
    callContext,
  }) => {
    const pa = await openPage(await callContext(a), '/', 'anna');
    const pb = await openPage(await callContext(b), '/', 'boris');
    await callFrom(pa, conversationId, false);
    await pb.getByRole('button', { name: 'Ответить', exact: true }).click();
    await expect(pa.getByRole('heading', { name: 'Звонок', exact: true })).toBeVisible({ timeout: 20_000 });
    const toolbar = pa.getByRole('toolbar', { name: 'Управление звонком' });
    await expect(toolbar.getByRole('button', { name: 'Участники: 2' })).toBeVisible();
    for (const name of ['Микрофон', 'Камера', 'Показать экран', 'Чат', 'Настройки', 'Завершить'])
      await expect(toolbar.getByRole('button', { name, exact: true })).toBeAttached();
    const invite = pa.getByRole('button', { name: 'Пригласить по ссылке' });
    await expect(invite).toBeVisible();

    const sizes = [
      [360, 640],
      [390, 844],
      [1280, 720],
      [1366, 800],
      [1440, 900],
      [1920, 1080],
    ] as const;
    const everySize = async (label: string) => {
      for (const [width, height] of sizes) {
        await pa.setViewportSize({ width, height });
        await expect.poll(() => unusableControls(pa), { message: `${label} at ${width}×${height}` }).toEqual([]);
      }
    };
    for (const colorScheme of ['light', 'dark'] as const) {
      await pa.emulateMedia({ colorScheme });
      await expect.poll(() => pa.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
      // A call without the guests' door: the conference alone under the header.
      const noDoor = await pa.addStyleTag({ content: '.call-overlay .guest-door { display: none }' });
      await everySize(`${colorScheme}, no door`);
      await noDoor.evaluate((el) => (el as HTMLStyleElement).remove());
      await everySize(`${colorScheme}, «Пригласить по ссылке»`);
    }
    // The door grows by the link to pass on: the video gives way, the bar stays.
    await pa.setViewportSize({ width: 1280, height: 720 });
    await invite.click();
    await expect(pa.getByTestId('guest-link')).toBeVisible();
    await everySize('dark, with the guest link');

    // The end button of the bar, pressed at the smallest size, ends the call.
    await pa.setViewportSize({ width: 360, height: 640 });
    await toolbar.getByRole('button', { name: 'Завершить', exact: true }).click();
    await expect(callOverlay(pa)).toHaveCount(0);
    await expect(callOverlay(pb)).toHaveCount(0, { timeout: 15_000 });
  });
});
