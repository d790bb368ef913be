// A publisher's uplink with the SFU's transport-cc feedback, walked in Chromium: a 720p simulcast camera fed a
// detailed clip publishes through a rate-capped link, ramps up, then the link is capped and its encoders back off.
// The walk measures and never asserts: e2e/sfu-uplink.spec.ts checks the behaviour against generous bounds,
// `BENCH_MODE=links npm run bench` (bench/links/run.ts) prints the timings against their targets.
//
// How many bits an encoder spends also depends on the picture, and Chromium's fake camera draws a simple one (a
// 720p encoder given 1.7 Mbit/s spends about 1): this camera is a file with detail that pans, as a real one has.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../playwright.config';
import { call, joinRoom } from './callers';
import type { SfuHarness } from './harness';

interface Uplink {
  bytes: number;
  /** The page's clock (ms), for rates. */
  at: number;
  estimate: number | null;
  target: number;
  layers: string[];
}

/** One look at the camera's sender (e2e/sfu-page/main.ts `uplink`), `t` seconds after publishing. */
export interface UplinkReading extends Uplink {
  t: number;
}

export interface UplinkWalkOptions {
  /** The send rate (bit/s, over half a second, with the 720p layer on) the ramp is waited for. */
  rampTo: number;
  /** How long after publishing the ramp is waited for (ms). */
  rampWithin: number;
  /** Keep reading until this long after publishing before the cap (ms): the rates at 1, 5 and 10 s. */
  observe: number;
  /** The rate cap (bit/s) put on the link after the ramp, and how long the encoders' targets get to go under it (ms). */
  cap: number;
  capWithin: number;
}

export interface UplinkWalk {
  readings: UplinkReading[];
  /** Seconds after publishing when the camera first sent `rampTo` with the 720p layer on; null: not within `rampWithin`. */
  ramp: number | null;
  /** Seconds after the cap when the encoders' targets summed went under it; null: not within `capWithin`. */
  backOff: number | null;
}

/**
 * A 2 s, 1280×720, 30 fps Y4M clip for Chromium's file camera: a texture of random 8×8 blocks panning 8 px a frame
 * (about 83 MB).
 */
export function writeCameraClip(file: string): void {
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

/**
 * A browser of its own whose camera is `clip`, joined to `room` of `h` as `cam` with a simulcast camera and no
 * microphone, through the TURN relay only (the rate-capped link in front of coturn).
 */
export async function openClipCamera(
  h: SfuHarness,
  room: string,
  clip: string,
): Promise<{ page: Page; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--use-file-for-fake-video-capture=${clip}`],
  });
  try {
    const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
    const page = await context.newPage();
    await joinRoom(page, h, 'cam', room, { simulcast: true, relay: true, microphone: false });
    return { page, close: () => browser.close() };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/** The 720p layer (rid f) has a target: Chromium's allocation reached it. */
export const hdOn = (r: Uplink) => r.layers.some((l) => l.startsWith('f:') && Number(l.split(':')[2]) > 0);

/** The reading nearest `t` seconds after publishing, if one is within half a second of it. */
function nearest(readings: UplinkReading[], t: number): UplinkReading | null {
  let best: UplinkReading | null = null;
  for (const r of readings) if (!best || Math.abs(r.t - t) < Math.abs(best.t - t)) best = r;
  return best && Math.abs(best.t - t) <= 0.5 ? best : null;
}

/** What the camera sent (bit/s) between the readings nearest `from` and `to` seconds after publishing. */
export function sentBetween(readings: UplinkReading[], from: number, to: number): number | null {
  const a = nearest(readings, from);
  const b = nearest(readings, to);
  return a && b && b.at > a.at ? ((b.bytes - a.bytes) * 8 * 1000) / (b.at - a.at) : null;
}

/** The encoders' targets summed at the reading nearest `t` seconds after publishing. */
export const targetAt = (readings: UplinkReading[], t: number): number | null => nearest(readings, t)?.target ?? null;

export const kbit = (bps: number | null) => (bps === null ? '–' : `${Math.round(bps / 1000)}`);

/** The readings as lines: time, estimate, targets, what was sent since the reading before, the layers. */
export function uplinkLog(readings: UplinkReading[]): string {
  return readings
    .map((r, i) => {
      const prev = readings[i - 1];
      const sent = prev && r.at > prev.at ? ((r.bytes - prev.bytes) * 8 * 1000) / (r.at - prev.at) : null;
      return `${r.t.toFixed(1)} s: estimate ${kbit(r.estimate)}, targets ${kbit(r.target)}, sent ${kbit(sent)} kbit/s, layers ${r.layers.join(' ')}`;
    })
    .join('\n');
}

/** Readings every quarter second or so (each a getStats round trip on the page). */
const READ_EVERY_MS = 250;
/** The ramp's rate is over half a second: long enough to hold several frames of every layer. */
const RAMP_WINDOW_MS = 500;

/** The walk from the moment `cam` has published (openClipCamera returned) on the uncapped `link`. */
export async function uplinkWalk(
  cam: Page,
  link: { setRate(bps: number | null): void },
  o: UplinkWalkOptions,
): Promise<UplinkWalk> {
  const published = Date.now();
  const readings: UplinkReading[] = [];
  const read = async () => {
    const r = { ...(await call<Uplink>(cam, 'uplink')), t: (Date.now() - published) / 1000 };
    readings.push(r);
    return r;
  };
  await read();
  let ramp: number | null = null;
  while (Date.now() - published < o.rampWithin && (ramp === null || Date.now() - published < o.observe)) {
    await sleep(READ_EVERY_MS);
    const r = await read();
    if (ramp !== null || !hdOn(r)) continue;
    const from = readings.findLast((x) => x.at <= r.at - RAMP_WINDOW_MS);
    if (from && ((r.bytes - from.bytes) * 8 * 1000) / (r.at - from.at) >= o.rampTo) ramp = r.t;
  }

  link.setRate(o.cap);
  const capped = Date.now();
  let backOff: number | null = null;
  while (backOff === null && Date.now() - capped < o.capWithin) {
    await sleep(READ_EVERY_MS);
    if ((await read()).target <= o.cap) backOff = (Date.now() - capped) / 1000;
  }
  return { readings, ramp, backOff };
}
