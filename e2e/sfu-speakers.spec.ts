// Active speakers: two publishers, one sending a steady tone and one silence; a third participant's
// Room.activeSpeakers (from the SFU's speakersChanged, read from the RFC 6464 audio level) names only the one
// with the tone, and follows when they swap.
import { type Browser, type BrowserContext, expect, test } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import { type SfuHarness, startSfuHarness } from './sfu-page/harness';
import { call, openCaller } from './sfu-page/callers';

test.use({ launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...chromiumArgs, '--autoplay-policy=no-user-gesture-required'] } });

let h: SfuHarness;
const contexts: BrowserContext[] = [];

test.beforeAll(async () => {
  h = await startSfuHarness();
});
test.afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
});
test.afterAll(async () => {
  await h?.close();
});


const open = (browser: Browser, identity: string, room: string, options: Record<string, unknown>) =>
  openCaller(browser, h, contexts, identity, room, options);

test('activeSpeakers names the participant sending a tone, not the silent one, and follows a swap', async ({ browser }) => {
  const room = 'speakers';
  const loud = await open(browser, 'loud', room, { camera: false, tone: 'on' });
  const quiet = await open(browser, 'quiet', room, { camera: false, tone: 'off' });
  const listener = await open(browser, 'listener', room, { camera: false, microphone: false });

  await expect.poll(() => call<string[]>(listener, 'speakers'), { timeout: 15_000 }).toEqual(['loud']);
  // Stays so: the silent one never shows up.
  await new Promise((r) => setTimeout(r, 2000));
  expect(await call<string[]>(listener, 'speakers')).toEqual(['loud']);

  await call(loud, 'setTone', false);
  await call(quiet, 'setTone', true);
  await expect.poll(() => call<string[]>(listener, 'speakers'), { timeout: 10_000 }).toEqual(['quiet']);
  // The speakers see themselves too (their own isSpeaking).
  await expect.poll(() => call<string[]>(quiet, 'speakers'), { timeout: 10_000 }).toContain('quiet');
});
