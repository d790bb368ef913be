// A publisher's uplink with the SFU's transport-cc feedback (server/sfu/media/twcc.ts, session/uplink-feedback.ts):
// Chromium's own send-side estimator lets a 720p simulcast camera use 1.5 Mbit/s within 5 s of publishing on a clean
// link, and backs it off within 2 s behind a 300 kbit/s cap. Without feedback its estimate crept up from 1 Mbit/s by
// 8 % a second (loss-based only) and the 720p layer stayed off for most of a minute.
//
// How many bits an encoder spends also depends on the picture, and Chromium's fake camera draws a simple one (a
// 720p encoder given 1.7 Mbit/s spends about 1): this camera is a file with detail that pans, as a real one has.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import { expect, mediaTest as test } from './fixtures';
import { call } from './sfu-page/callers';
import { coturnInstalled } from './sfu-page/coturn';
import { mintToken } from './sfu-page/harness';

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

/**
 * A 2 s, 1280×720, 30 fps Y4M clip for Chromium's file camera: a texture of random 8×8 blocks panning 8 px a frame
 * (about 83 MB, written once per run).
 */
function writeCamera(file: string): void {
  const w = 1280;
  const h = 720;
  const frames = 60;
  const tw = w + frames * 8;
  const texture = Buffer.alloc(tw * h);
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed >> 16;
  };
  for (let by = 0; by < h; by += 8)
    for (let bx = 0; bx < tw; bx += 8) {
      const v = 16 + (random() % 220);
      for (let y = by; y < by + 8; y++) texture.fill(v, y * tw + bx, y * tw + bx + 8);
    }
  const chroma = Buffer.alloc((w / 2) * (h / 2) * 2, 128);
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\n`)];
  for (let f = 0; f < frames; f++) {
    const luma = Buffer.alloc(w * h);
    for (let y = 0; y < h; y++) texture.copy(luma, y * w, y * tw + f * 8, y * tw + f * 8 + w);
    parts.push(Buffer.from('FRAME\n'), luma, chroma);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, Buffer.concat(parts));
}

const kbit = (bps: number | null) => (bps === null ? '–' : `${Math.round(bps / 1000)}`);

test('a 720p camera sends 1.5 Mbit/s within 5 s of publishing and backs off within 2 s behind a 300 kbit/s cap', async ({
  relayedSfu: h,
  link,
}, testInfo) => {
  test.setTimeout(90_000);
  const clip = path.join(testInfo.outputDir, 'camera.y4m');
  writeCamera(clip);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...chromiumArgs, `--use-file-for-fake-video-capture=${clip}`],
  });
  try {
    const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
    const cam = await context.newPage();
    await cam.goto(h.pageUrl);
    // Through the userspace relay (and coturn), uncapped for now.
    await call(cam, 'join', h.sfu.url, await mintToken('cam', 'uplink'), {
      simulcast: true,
      relay: true,
      microphone: false,
    });
    await uplinkWalk(cam, link);
  } finally {
    await browser.close();
  }
});

async function uplinkWalk(cam: Page, link: { setRate(bps: number | null): void }): Promise<void> {
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
          const s = await watch(500);
          return s.bps;
        },
        { timeout: 5_000 - (Date.now() - published), intervals: [0] },
      )
      .toBeGreaterThanOrEqual(1_500_000);
    // The 720p layer is on.
    expect((await call<Uplink>(cam, 'uplink')).layers.some((l) => l.startsWith('f:1280:'))).toBe(true);
    const ramp = (Date.now() - published) / 1000;
    // What it sends around the first second: the window up to 1 s after publishing (a quarter second at least).
    const at1 = await watch(Math.max(250, 1000 - (Date.now() - published)));
    // And stays up: what congestion control lets the encoders use at 5 and 10 s, and what they sent over the two
    // seconds before each. Two seconds, not one: an encoder on this busy machine sometimes skips frames for a moment
    // and makes up for it in the next (2.7 then 1.1 Mbit/s in two one-second windows, with 2.3 Mbit/s of targets).
    const at = async (s: number) => {
      await cam.waitForTimeout(Math.max(0, s * 1000 - 2000 - (Date.now() - published)));
      return watch(2000);
    };
    const at5 = await at(5);
    const at10 = await at(10);
    for (const sample of [at5, at10]) {
      expect(sample.target).toBeGreaterThanOrEqual(1_500_000);
      expect(sample.bps).toBeGreaterThanOrEqual(1_500_000);
    }

    link.setRate(300_000);
    const capped = Date.now();
    await expect
      .poll(async () => (await watch(250)).target, { timeout: 2_000, intervals: [0] })
      .toBeLessThanOrEqual(300_000);
    const backOff = (Date.now() - capped) / 1000;
    console.log(
      `uplink: sending 1.5 Mbit/s ${ramp.toFixed(1)} s after publishing (${kbit(at1.bps)} kbit/s at 1 s, ${kbit(at5.bps)} at 5 s, ${kbit(at10.bps)} at 10 s); encoders under 300 kbit/s ${backOff.toFixed(1)} s after the cap`,
    );
  } finally {
    console.log(seen.join('\n'));
  }
}
