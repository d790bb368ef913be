// No frozen video after a layer switch: a subscriber flips between the lowest and the best simulcast layer again
// and again, and after every switch it decodes the new layer's size and keeps decoding frames. Late joiners
// start decoding promptly as well.
import type { Page } from '@playwright/test';
import { expect, mediaTest as test } from './fixtures';
import { call } from './sfu-page/callers';

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

test('switching layers back and forth never leaves the subscriber frozen', async ({ sfuHarness: h, openCaller }) => {
  const room = 'switching';
  await openCaller(h, 'cam', room, { simulcast: true, microphone: false });
  const viewer = await openCaller(h, 'viewer', room, { camera: false, microphone: false });
  await expect.poll(async () => (await videoOf(viewer, 'cam')).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(0);
  // The publisher's upper layers need a moment to ramp up.
  await expect.poll(async () => (await videoOf(viewer, 'cam')).width, { timeout: 25_000 }).toBeGreaterThan(320);

  // What the SFU forwards to the viewer, and the best layer the publisher sends right now (Chrome drops upper
  // layers for a while when the machine is busy: "high" is then the best one still arriving).
  const rank = ['q', 'h', 'f'];
  const serverView = () => {
    const participants = [...(h.sfu.rooms.get(room)?.participants.values() ?? [])];
    const track = [...(participants.find((p) => p.identity === 'cam')?.published.values() ?? [])].find(
      (t) => t.kind === 'video',
    );
    const sub = track ? participants.find((p) => p.identity === 'viewer')?.subscriptions.get(track.sid) : undefined;
    // The best layer the viewer may get: also within what the SFU estimates its downlink carries (a loaded
    // machine can make even loopback look congested).
    const live = (track?.liveLayers() ?? [])
      .sort((a, b) => rank.indexOf(a) - rank.indexOf(b))
      .filter((r, i) => i === 0 || rank.indexOf(r) <= (sub?.bandwidthRank ?? 2));
    return { layer: sub?.layer, best: live.at(-1) };
  };

  for (let i = 0; i < 6; i++) {
    const low = i % 2 === 0;
    await call(viewer, 'setQuality', 'cam', low ? 'low' : 'high');
    // The viewer decodes the new layer's size: the quarter-size q layer (≤ 320 wide) or a bigger one.
    await expect
      .poll(
        async () => {
          const { layer, best } = serverView();
          const w = (await videoOf(viewer, 'cam')).width;
          const want = low ? 'q' : best;
          return layer === want && w > 0 && (layer === 'q') === w <= 320
            ? 'switched'
            : JSON.stringify({ layer, best, w });
        },
        { timeout: 10_000, message: `switch ${i} to ${low ? 'low' : 'high'}` },
      )
      .toBe('switched');
    // And it keeps decoding on the new layer: a frozen stream stops counting frames.
    const before = (await videoOf(viewer, 'cam')).framesDecoded;
    await expect
      .poll(async () => (await videoOf(viewer, 'cam')).framesDecoded, {
        timeout: 5000,
        message: `frames after switch ${i}`,
      })
      .toBeGreaterThan(before + 10);
  }
});
