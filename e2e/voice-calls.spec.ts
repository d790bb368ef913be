// Voice messages and call entries in real Chromium with its fake microphone, against the real server (serving
// the built client) and the embedded media server: A records about 3 s and B plays it live (time advances,
// clicking the waveform seeks, 1.5× changes the rate); an unanswered call is «Пропущенный звонок» on both
// sides and unread for B; an answered call shows its duration on both sides.
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import type { Clock } from '../server/clock';
import { TIMINGS } from '../src/contract/limits';
import { expect as baseExpect, defaultServerOptions, type E2EUser, mediaTest } from './fixtures';
import { signInContext } from './users';

const expect = baseExpect.configure({ timeout: 15_000 });

/**
 * `open(u, label)`: a page signed in as `u` with camera and microphone allowed (or the given permissions), its
 * socket live; with `clock`, its clock is one the test moves (Playwright's page clock).
 */
const test = mediaTest.extend<{
  open: (u: E2EUser, label: string, permissions?: string[], clock?: boolean) => Promise<Page>;
}>({
  open: async ({ srv, newContext }, use) => {
    await use(async (u, label, permissions = ['camera', 'microphone'], clock = false) => {
      const context = await newContext({ baseURL: srv.url, permissions });
      if (clock) await context.clock.install();
      await signInContext(context, u);
      const page = await context.newPage();
      page.on('pageerror', (e) => console.log(`[${label}] page error: ${e.message}`));
      await page.goto(`${srv.url}/`);
      await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 30_000 });
      return page;
    });
  },
});

// The server's rules run ahead when a test says so, as the pages' clocks do: a call rings out without waiting 25 s.
const serverAhead = { ms: 0 };
const serverClock: Clock = {
  now: () => Date.now() + serverAhead.ms,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
};
test.use({ serverOptions: { ...defaultServerOptions, clock: serverClock } });

const openConversation = (page: Page, id: string) => page.locator(`[data-conversation-id="${id}"]`).first().click();
const audioTime = (page: Page) =>
  page
    .getByTestId('voice-audio')
    .last()
    .evaluate((a: HTMLAudioElement) => a.currentTime);

test('A records a voice message of about 3 s; B sees it live, plays it, seeks on the waveform and speeds it up', async ({
  friends: { a, b, conversationId },
  open,
}) => {
  const pa = await open(a, 'anna');
  const pb = await open(b, 'boris');
  await openConversation(pa, conversationId);
  await openConversation(pb, conversationId);

  await pa.getByRole('button', { name: 'Записать голосовое сообщение' }).click();
  const recorder = pa.getByRole('region', { name: 'Запись голосового сообщения' });
  await expect(recorder).toBeVisible();
  await expect(pa.getByTestId('recorder-time')).toHaveText('0:01', { timeout: 20_000 });
  await expectNoSeriousA11yViolations(pa, 'recorder');
  // Escape drops that recording (the scan took its time); the next one is sent at 3 s.
  await pa.keyboard.press('Escape');
  await expect(recorder).toHaveCount(0);
  await pa.getByRole('button', { name: 'Записать голосовое сообщение' }).click();
  await expect(pa.getByTestId('recorder-time')).toHaveText('0:03', { timeout: 20_000 });
  await recorder.getByRole('button', { name: 'Отправить' }).click();
  await expect(recorder).toHaveCount(0);

  // B sees it live, with its length.
  const player = pb.getByTestId('voice-player');
  await expect(player).toHaveCount(1);
  await expect(player.getByTestId('voice-time')).toHaveText('0:03');
  await expect(pa.getByTestId('voice-player')).toHaveCount(1);
  await expectNoSeriousA11yViolations(pb, 'voice player');

  await player.getByRole('button', { name: 'Воспроизвести голосовое сообщение' }).click();
  await expect.poll(() => audioTime(pb), { message: 'playback advances' }).toBeGreaterThan(0.3);
  await player.getByRole('button', { name: 'Пауза' }).click();

  // Clicking near the end of the waveform seeks there.
  const wave = player.getByTestId('voice-wave');
  const box = (await wave.boundingBox())!;
  await pb.mouse.click(box.x + box.width * 0.8, box.y + box.height / 2);
  await expect.poll(() => audioTime(pb), { message: 'the click seeks' }).toBeGreaterThan(2);

  await player.getByTestId('voice-rate').click();
  await expect(player.getByTestId('voice-rate')).toHaveText('1.5×');
  expect(
    await pb
      .getByTestId('voice-audio')
      .last()
      .evaluate((el: HTMLAudioElement) => el.playbackRate),
  ).toBe(1.5);

  // The list's preview on the other side.
  await expect(pa.locator(`[data-conversation-id="${conversationId}"]`).getByTestId('chat-tile-preview')).toHaveText(
    'Голосовое сообщение 0:03',
  );
});

test('a refused microphone says so in Russian, and the composer comes back', async ({
  friends: { a, conversationId },
  open,
}) => {
  const pa = await open(a, 'anna', []);
  await pa.evaluate(async () => {
    // The page is told no, as a browser whose user blocked the microphone.
    const refuse = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    Object.defineProperty(navigator.mediaDevices, 'getUserMedia', { value: refuse });
  });
  await openConversation(pa, conversationId);
  await pa.getByRole('button', { name: 'Записать голосовое сообщение' }).click();
  await expect(pa.getByRole('alert').filter({ hasText: 'Доступ к микрофону запрещён' })).toBeVisible();
  await expectNoSeriousA11yViolations(pa, 'recorder refused');
  await pa.getByRole('button', { name: 'Закрыть', exact: true }).click();
  await expect(pa.getByRole('textbox', { name: 'Сообщение' })).toBeVisible();
});

test('A calls B, B does not answer: both see «Пропущенный звонок» and B’s unread count rises', async ({
  friends: { a, b, conversationId },
  open,
}) => {
  const pa = await open(a, 'anna', undefined, true);
  const pb = await open(b, 'boris', undefined, true);
  await openConversation(pa, conversationId);
  await pa.getByRole('button', { name: 'Позвонить', exact: true }).click();
  await expect(pb.getByRole('alertdialog', { name: 'Входящий аудио/видео звонок' })).toBeVisible();
  // Nobody answers: the ring times out on both sides, and the server, 25 s on, counts the call missed.
  serverAhead.ms += TIMINGS.ringTimeoutMs;
  await pb.clock.fastForward(TIMINGS.ringTimeoutMs);
  await pa.clock.fastForward(TIMINGS.ringTimeoutMs);
  await expect(pa.getByTestId('call-entry')).toHaveText(/Пропущенный звонок/);
  const tile = pb.locator(`[data-conversation-id="${conversationId}"]`);
  await expect(tile.getByTestId('chat-tile-subtitle')).toHaveText('1 непрочитанных');
  await expect(tile.getByTestId('chat-tile-preview')).toHaveText('Пропущенный звонок');
  await openConversation(pb, conversationId);
  await expect(pb.getByTestId('call-entry')).toHaveText(/Пропущенный звонок/);
  await expect(pb.getByTestId('call-entry').getByRole('button', { name: 'Перезвонить' })).toBeVisible();
});

test('an answered call shows its duration on both sides; what was typed in its chat stays in the conversation', async ({
  friends: { a, b, conversationId },
  open,
}) => {
  const pa = await open(a, 'anna');
  // B has no conversation open: answering opens the call's one, whose messages are the call's chat.
  const pb = await open(b, 'boris');
  await openConversation(pa, conversationId);
  await pa.getByRole('button', { name: 'Позвонить', exact: true }).click();
  await pb.getByRole('button', { name: 'Ответить', exact: true }).click();
  await expect(pa.getByRole('heading', { name: 'Звонок', exact: true })).toBeVisible();

  // The call's chat panel is the conversation: a line typed there is an ordinary message, seen on both sides.
  await pa.getByRole('button', { name: 'Чат', exact: true }).click();
  const input = pa.getByRole('textbox', { name: 'Сообщение в чат звонка' });
  await input.fill('Пишу из звонка');
  await input.press('Enter');
  await expect(pa.locator('.call-chat')).toContainText('Пишу из звонка');
  await pb.getByRole('button', { name: /^Чат/ }).click();
  await expect(pb.locator('.call-chat')).toContainText('Пишу из звонка');
  await expect(pb.locator('.call-chat')).toContainText('Анна');
  await pa.getByRole('button', { name: 'Завершить звонок' }).click();

  // The duration's value is the server's (tests/server/call-entries.test.ts); here, that both sides show one.
  await expect(pa.getByTestId('call-entry')).toHaveText(/Исходящий звонок · \d+:\d\d/);
  await expect(pb.getByTestId('call-entry')).toHaveText(/Входящий звонок · \d+:\d\d/);
  for (const page of [pa, pb])
    await expect(page.getByTestId('message').filter({ hasText: 'Пишу из звонка' })).toHaveCount(1);
});
