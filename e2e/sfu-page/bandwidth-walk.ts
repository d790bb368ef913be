// Bandwidth per subscriber, walked in Chromium: a viewer whose downlink crosses a rate-capped link (relay-only
// through coturn, with the userspace UDP relay in front of coturn acting as the bottleneck) gets the layer that fits,
// from the REMBs its browser sends. At 300 kbit/s it is moved to the low layer and keeps decoding; at 90 kbit/s its
// video is paused (the client is told, streamStateUpdate) while audio keeps flowing; when the cap is lifted the SFU
// probes and brings the video and then the high layer back.
//
// The walk checks that behaviour (it throws when a step does not happen within its bound) and returns how long each
// step took: e2e/sfu-bandwidth.spec.ts runs it as a test, `BENCH_MODE=links npm run bench` (bench/links/run.ts)
// prints the times against their targets.
import { expect, type Page } from '@playwright/test';
import { call } from './callers';
import type { SfuHarness } from './harness';
import type { UdpRelay } from './udp-relay';

/** A caller that joined `room` of the walk's SFU as `identity` (join's options). */
export type OpenCaller = (identity: string, room: string, options: Record<string, unknown>) => Promise<Page>;

/** Seconds each step took. */
export interface BandwidthWalk {
  /** From the 300 kbit/s cap to the low layer decoding at the viewer. */
  down: number;
  /** From the 90 kbit/s cap to the video paused. */
  paused: number;
  /** From lifting the cap to the video active again. */
  resumed: number;
  /** From lifting the cap to the high layer decoding at the viewer. */
  high: number;
}

// Bounds of each step: several times what they take on a loaded 2-core machine, so the walk fails on a step that does
// not happen, not on a slow one (the times themselves are the benchmark's). Each is counted from the step's start.
/** Uncapped, the publisher's upper layers come on (its uplink estimate ramps without transport-cc here). */
const FIRST_HIGH_MS = 60_000;
/** Behind 300 kbit/s: Chromium's REMB after the first congestion and the loss in its receiver reports take the SFU
 * down at once; 1–3 s measured at load averages of 6–18. */
const DOWN_MS = 30_000;
/** 60 frames on the low layer (15–30 fps of it), through the SFU's probes meanwhile. */
const LOW_FRAMES_MS = 60_000;
/** Behind 90 kbit/s: the lowest layer has to not fit for 5 s first. */
const PAUSE_MS = 60_000;
/** Lifted: the climb goes through the SFU's probes (each clean one proves its rate, about doubling) and Chromium's
 * REMB, which grows by at most 8 % a second; video back after 11–28 s and the high layer 10 s later, measured at
 * load averages of 6–18. */
const RESUME_MS = 120_000;
const HIGH_MS = 120_000;
/** Everything above at once, for a test's timeout. */
export const BANDWIDTH_WALK_BOUND_MS =
  FIRST_HIGH_MS + DOWN_MS + LOW_FRAMES_MS + PAUSE_MS + 2 * 15_000 + RESUME_MS + 20_000 + HIGH_MS;

interface Received {
  identity: string;
  kind: string;
  width: number;
  framesDecoded: number;
}

const videoOf = async (page: Page, identity: string) =>
  (await call<Received[]>(page, 'received')).find((r) => r.identity === identity && r.kind === 'video') ?? {
    width: 0,
    framesDecoded: 0,
  };

/** What the SFU does for the viewer: the layer it forwards, the best one arriving, its estimate of the downlink. */
function serverView(h: SfuHarness, room: string) {
  const rank = ['q', 'h', 'f'];
  const participants = [...(h.sfu.rooms.get(room)?.participants.values() ?? [])];
  const track = [...(participants.find((p) => p.identity === 'cam')?.published.values() ?? [])].find(
    (t) => t.kind === 'video',
  );
  const viewer = participants.find((p) => p.identity === 'viewer');
  const live = (track?.liveLayers() ?? []).sort((a, b) => rank.indexOf(a) - rank.indexOf(b));
  const sub = track ? viewer?.subscriptions.get(track.sid) : undefined;
  const estimate = viewer?.downTracks.estimate.current(Date.now()) ?? null;
  return {
    layer: sub?.layer ?? null,
    best: live.at(-1),
    estimate: estimate === null ? null : Math.round(estimate / 1000),
  };
}

/** SFU_BW_DEBUG=1 prints the viewer's side once a second: layer, estimate, loss, padding, frames. */
function trace(
  h: SfuHarness,
  relay: UdpRelay,
  room: string,
  viewer: () => Page | null,
  publisher: () => Page | null,
): () => void {
  if (!process.env.SFU_BW_DEBUG) return () => {};
  const t0 = Date.now();
  const timer = setInterval(async () => {
    const page = viewer();
    const p = [...(h.sfu.rooms.get(room)?.participants.values() ?? [])].find((x) => x.identity === 'viewer');
    const d = p?.downTracks as unknown as
      | { paddingBps: number; estimate: { loss: number; lossCap: number; bps: number } }
      | undefined;
    const camP = [...(h.sfu.rooms.get(room)?.participants.values() ?? [])].find((x) => x.identity === 'cam');
    const track = [...(camP?.published.values() ?? [])].find((t) => t.kind === 'video');
    const sub = track ? p?.subscriptions.get(track.sid) : undefined;
    const v = page ? await videoOf(page, 'cam').catch(() => ({ framesDecoded: -1, width: -1 })) : null;
    console.log(
      ((Date.now() - t0) / 1000).toFixed(1),
      JSON.stringify(serverView(h, room)),
      `remb=${Math.round((d?.estimate.bps ?? 0) / 1000)} cap=${Math.round((d?.estimate.lossCap ?? 0) / 1000)} loss=${d?.estimate.loss.toFixed(2)} pad=${Math.round((d?.paddingBps ?? 0) / 1000)}`,
      `pin=${track?.packetsIn} pout=${track?.packetsOut} sub=${sub?.paused}/${sub?.congested}/${sub?.attached}`,
      `drops=${relay.capDrops} frames=${v?.framesDecoded} w=${v?.width}`,
      await publisher()
        ?.evaluate(() => (window as never as { sfu: { rtpStats(): Promise<string> } }).sfu.rtpStats())
        .catch(() => ''),
      await page
        ?.evaluate(() => (window as never as { sfu: { rtpStats(): Promise<string> } }).sfu.rtpStats())
        .catch(() => ''),
    );
  }, 1000);
  return () => clearInterval(timer);
}

/**
 * One walk down and back up (one call set-up instead of two) in `room` of `h`, whose viewer is reached through
 * `relay`. The layer chosen for a given estimate, the hold before a step up, the pause and the probes are proven
 * with the estimate driven by the test in tests/server/sfu-bandwidth.test.ts; here, that real browsers' REMBs through
 * a real bottleneck reach those rules. Every window below is counted in frames or audio packets, never in sleeps.
 */
export async function bandwidthWalk(
  h: SfuHarness,
  relay: UdpRelay,
  open: OpenCaller,
  room: string,
): Promise<BandwidthWalk> {
  let viewerPage: Page | null = null;
  let camPage: Page | null = null;
  const stop = trace(
    h,
    relay,
    room,
    () => viewerPage,
    () => camPage,
  );
  try {
    camPage = await open('cam', room, { simulcast: true });
    const viewer = await open('viewer', room, { camera: false, microphone: false, relay: true });
    viewerPage = viewer;
    const layerAndWidth = async () => ({ ...serverView(h, room), w: (await videoOf(viewer, 'cam')).width });
    const high = async () => {
      const v = await layerAndWidth();
      return v.layer !== null && v.layer !== 'q' && v.w > 320 ? 'high' : JSON.stringify(v);
    };
    const audioOut = () => {
      const cam = [...(h.sfu.rooms.get(room)?.participants.values() ?? [])].find((p) => p.identity === 'cam');
      return [...(cam?.published.values() ?? [])].find((t) => t.kind === 'audio')?.packetsOut ?? 0;
    };
    /** Waits until the camera's audio has sent `n` more packets (50 a second): a window counted, not slept. */
    const audioWindow = async (n: number) => {
      const from = audioOut();
      await expect.poll(audioOut, { timeout: 15_000, message: `${n} audio packets` }).toBeGreaterThan(from + n);
    };
    const since = (t: number) => (Date.now() - t) / 1000;

    // Uncapped, the viewer gets more than the low layer (the publisher's upper layers need a moment to ramp up).
    await expect.poll(high, { timeout: FIRST_HIGH_MS }).toBe('high');

    if (process.env.SFU_BW_DEBUG) console.log('cap 300 kbit/s');
    relay.setRate(300_000);
    const capped = Date.now();
    await expect
      .poll(
        async () => {
          const v = await layerAndWidth();
          return v.layer === 'q' && v.w > 0 && v.w <= 320 ? 'low' : JSON.stringify(v);
        },
        { timeout: DOWN_MS, intervals: [250] },
      )
      .toBe('low');
    const down = since(capped);
    // It keeps decoding on the low layer through the cap: 60 more frames (seconds, spanning the SFU's probes), on the
    // low layer every time it is looked at.
    const decodedAtLow = (await videoOf(viewer, 'cam')).framesDecoded;
    await expect
      .poll(
        async () => {
          const v = await layerAndWidth();
          if (v.layer !== 'q' || v.w > 320) return -1;
          return (await videoOf(viewer, 'cam')).framesDecoded;
        },
        { timeout: LOW_FRAMES_MS, intervals: [250], message: 'frames on the low layer under the cap' },
      )
      .toBeGreaterThan(decodedAtLow + 60);

    if (process.env.SFU_BW_DEBUG) console.log('cap 90 kbit/s');
    relay.setRate(90_000);
    const starved = Date.now();
    await expect
      .poll(
        async () => {
          const state = await call<string>(viewer, 'streamState', 'cam');
          return state === 'paused' ? state : JSON.stringify({ state, ...serverView(h, room) });
        },
        { timeout: PAUSE_MS, intervals: [500] },
      )
      .toBe('paused');
    const paused = since(starved);
    expect(serverView(h, room).layer).toBeNull();
    expect(await call<string[]>(viewer, 'events')).toContain('stream:cam:camera:paused');
    // Paused: no video frames reach the viewer (after what was already on its way: a second of audio), while the
    // microphone's packets still do (three seconds of them).
    await audioWindow(50);
    const frames = (await videoOf(viewer, 'cam')).framesDecoded;
    await audioWindow(150);
    expect((await videoOf(viewer, 'cam')).framesDecoded).toBeLessThanOrEqual(frames + 2);
    expect(serverView(h, room).layer).toBeNull();

    if (process.env.SFU_BW_DEBUG) console.log('uncapped');
    relay.setRate(null);
    const lifted = Date.now();
    await expect
      .poll(
        async () => {
          const state = await call<string>(viewer, 'streamState', 'cam');
          return state === 'active' ? state : JSON.stringify({ state, ...serverView(h, room) });
        },
        { timeout: RESUME_MS, intervals: [500] },
      )
      .toBe('active');
    const resumed = since(lifted);
    const framesAtResume = (await videoOf(viewer, 'cam')).framesDecoded;
    await expect
      .poll(async () => (await videoOf(viewer, 'cam')).framesDecoded, { timeout: 20_000 })
      .toBeGreaterThan(framesAtResume + 10);
    await expect.poll(high, { timeout: HIGH_MS, intervals: [500] }).toBe('high');
    return { down, paused, resumed, high: since(lifted) };
  } finally {
    stop();
  }
}
