// The embedded SFU with two independent client families at once: livekit-client in Chromium and LiveKit's Rust
// SDK (@livekit/rtc-node). Each receives the other's audio and video, and data flows both ways.
import { dispose } from '@livekit/rtc-node';
import { expect, mediaTest } from './fixtures';
import { call } from './sfu-page/callers';
import { mintToken } from './sfu-page/harness';
import { RustParticipant } from './sfu-page/rust-client';

/** `rust`: a participant on LiveKit's Rust SDK, closed after the test. */
const test = mediaTest.extend<{ rust: RustParticipant }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  rust: async ({}, use) => {
    const rust = new RustParticipant();
    await use(rust);
    await rust.close().catch(() => {});
  },
});
test.afterAll(async () => {
  await dispose();
});

test('a browser and the Rust SDK exchange audio, video and data', async ({ sfuHarness: h, page, rust }) => {
  const room = 'room-rust';
  await page.goto(h.pageUrl);
  await call(page, 'join', h.sfu.url, await mintToken('web', room));

  await rust.connect(h.sfu.url, await mintToken('rust', room));
  await rust.publishToneAndPattern();

  // The browser decodes the Rust client's video and hears its tone.
  await expect
    .poll(
      async () => {
        const got = await call<Array<{ identity: string; kind: string; width: number; framesDecoded: number }>>(
          page,
          'received',
        );
        const v = got.find((r) => r.identity === 'rust' && r.kind === 'video');
        return v ? v.framesDecoded > 0 && v.width === 640 : false;
      },
      { timeout: 20_000, message: 'browser decodes video from rust' },
    )
    .toBe(true);
  await expect.poll(() => call<number>(page, 'audioFrom', 'rust'), { timeout: 20_000 }).toBeGreaterThan(0.01);

  // The Rust client decodes the browser's camera and microphone.
  await expect
    .poll(() => rust.received.videoFrames.get('web:video')?.frames ?? 0, { timeout: 20_000 })
    .toBeGreaterThan(5);
  expect(rust.received.videoFrames.get('web:video')?.width).toBeGreaterThan(0);
  await expect.poll(() => rust.received.audioPeak.get('web:audio') ?? 0, { timeout: 20_000 }).toBeGreaterThan(100);

  // Data both ways.
  await rust.publishText('от rust');
  await call(page, 'chat', 'from web');
  await expect
    .poll(() => call<Array<{ from: string; text: string }>>(page, 'chats'))
    .toContainEqual({ from: 'rust', text: 'от rust', via: 'data' });
  await expect.poll(() => rust.received.data).toContainEqual({ from: 'web', text: 'from web' });
});
