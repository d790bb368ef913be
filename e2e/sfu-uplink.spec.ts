// A publisher's uplink with the SFU's transport-cc feedback (server/sfu/media/twcc.ts, session/uplink-feedback.ts):
// Chromium's own send-side estimator lets a 720p simulcast camera use 1.5 Mbit/s within 5 s of publishing on a clean
// link, and backs it off within 2 s behind a 300 kbit/s cap. Without feedback its estimate crept up from 1 Mbit/s by
// 8 % a second (loss-based only) and the 720p layer stayed off for most of a minute.
//
// What is asserted is what congestion control allows (the browser's estimate and the encoders' targets): how many
// bits an encoder actually spends also depends on the picture, and Chromium's fake camera draws a simple one.
import type { Page } from '@playwright/test';
import { expect, mediaTest as test } from './fixtures';
import { call } from './sfu-page/callers';
import { coturnInstalled } from './sfu-page/coturn';

if (!coturnInstalled()) throw new Error('coturn is not installed (apt-get install coturn): the uplink spec needs it');

interface Uplink {
  bytes: number;
  at: number;
  estimate: number | null;
  target: number;
  layers: string[];
}

/** The camera over the next `ms`: its send rate (bit/s), and the estimate and targets at the end. */
async function sample(page: Page, ms: number): Promise<Uplink & { bps: number }> {
  const a = await call<Uplink>(page, 'uplink');
  await page.waitForTimeout(ms);
  const b = await call<Uplink>(page, 'uplink');
  return { ...b, bps: ((b.bytes - a.bytes) * 8 * 1000) / (b.at - a.at) };
}

const kbit = (bps: number | null) => (bps === null ? '–' : `${Math.round(bps / 1000)}`);

test('a 720p camera may send 1.5 Mbit/s within 5 s of publishing and backs off within 2 s behind a 300 kbit/s cap', async ({
  relayedSfu: h,
  link,
  openCaller,
}) => {
  test.setTimeout(60_000);
  // Through the userspace relay (and coturn), uncapped for now.
  const cam = await openCaller(h, 'cam', 'uplink', { simulcast: true, relay: true, microphone: false });
  const published = Date.now();
  const seen: string[] = [];
  const watch = async (ms: number) => {
    const s = await sample(cam, ms);
    seen.push(
      `${((Date.now() - published) / 1000).toFixed(1)} s: estimate ${kbit(s.estimate)}, targets ${kbit(s.target)}, sent ${kbit(s.bps)} kbit/s`,
    );
    return s;
  };
  try {
    await expect
      .poll(
        async () => {
          const s = await watch(250);
          return Math.min(s.estimate ?? 0, s.target);
        },
        { timeout: 5_000 - (Date.now() - published), intervals: [0] },
      )
      .toBeGreaterThanOrEqual(1_500_000);
    // The 720p layer is on.
    expect((await call<Uplink>(cam, 'uplink')).layers.some((l) => l.startsWith('f:1280:'))).toBe(true);
    const ramp = (Date.now() - published) / 1000;

    link.setRate(300_000);
    const capped = Date.now();
    await expect
      .poll(async () => (await watch(250)).target, { timeout: 2_000, intervals: [0] })
      .toBeLessThanOrEqual(300_000);
    const backOff = (Date.now() - capped) / 1000;
    console.log(
      `uplink: 1.5 Mbit/s allowed ${ramp.toFixed(1)} s after publishing; under 300 kbit/s ${backOff.toFixed(1)} s after the cap`,
    );
  } finally {
    console.log(seen.join('\n'));
  }
});
