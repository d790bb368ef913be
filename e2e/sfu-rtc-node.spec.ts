// The embedded SFU with two independent client families at once: livekit-client in Chromium and LiveKit's Rust
// SDK (@livekit/rtc-node). Each receives the other's audio and video, and data flows both ways.
import { dispose } from '@livekit/rtc-node';
import { expect, type Page, test } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import { mintToken, type SfuHarness, startSfuHarness } from './sfu-page/harness';
import { RustParticipant } from './sfu-page/rust-client';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...chromiumArgs, '--autoplay-policy=no-user-gesture-required', '--auto-select-desktop-capture-source=Entire screen'],
  },
});

let h: SfuHarness;
let rust: RustParticipant | null = null;

test.beforeAll(async () => {
  h = await startSfuHarness();
});
test.afterAll(async () => {
  await rust?.close().catch(() => {});
  await h?.close();
  await dispose();
});

const call = <T>(page: Page, fn: string, ...args: unknown[]): Promise<T> =>
  page.evaluate(
    ([f, a]) => (window as never as Record<string, Record<string, (...x: unknown[]) => T>>).sfu[f as string](...(a as unknown[])),
    [fn, args] as const,
  ) as Promise<T>;

test('a browser and the Rust SDK exchange audio, video and data', async ({ page }) => {
  const room = 'room-rust';
  await page.goto(h.pageUrl);
  await call(page, 'join', h.sfu.url, await mintToken('web', room));

  rust = new RustParticipant();
  await rust.connect(h.sfu.url, await mintToken('rust', room));
  await rust.publishToneAndPattern();

  // The browser decodes the Rust client's video and hears its tone.
  await expect
    .poll(
      async () => {
        const got = await call<Array<{ identity: string; kind: string; width: number; framesDecoded: number }>>(page, 'received');
        const v = got.find((r) => r.identity === 'rust' && r.kind === 'video');
        return v ? v.framesDecoded > 0 && v.width === 640 : false;
      },
      { timeout: 20_000, message: 'browser decodes video from rust' },
    )
    .toBe(true);
  await expect.poll(() => call<number>(page, 'audioFrom', 'rust'), { timeout: 20_000 }).toBeGreaterThan(0.01);

  // The Rust client decodes the browser's camera and microphone.
  const r = rust;
  await expect.poll(() => r.received.videoFrames.get('web:video')?.frames ?? 0, { timeout: 20_000 }).toBeGreaterThan(5);
  expect(r.received.videoFrames.get('web:video')?.width).toBeGreaterThan(0);
  await expect.poll(() => r.received.audioPeak.get('web:audio') ?? 0, { timeout: 20_000 }).toBeGreaterThan(100);

  // Data both ways.
  await r.publishText('от rust');
  await call(page, 'chat', 'from web');
  await expect.poll(() => call<Array<{ from: string; text: string }>>(page, 'chats')).toContainEqual({ from: 'rust', text: 'от rust', via: 'data' });
  await expect.poll(() => r.received.data).toContainEqual({ from: 'web', text: 'from web' });
});
