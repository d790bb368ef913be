// Bandwidth per subscriber: a viewer behind a capped downlink is moved down to the low layer, paused below it while
// audio flows, and brought back up when the cap is lifted (the walk and its bounds: e2e/sfu-page/bandwidth-walk.ts).
// The spec checks that each step happens; how fast is `BENCH_MODE=links npm run bench`'s figure.
import { mediaTest } from './fixtures';
import { BANDWIDTH_WALK_BOUND_MS, bandwidthWalk } from './sfu-page/bandwidth-walk';
import { coturnInstalled, turnVia } from './sfu-page/coturn';
import type { SfuHarness } from './sfu-page/harness';

const test = mediaTest.extend<{ h: SfuHarness }>({
  // An SFU of its own, reached through the same relay, without transport-cc to publishers: the subject here is the
  // viewer's downlink, and a camera held near its start bitrate keeps the layers' sizes what this walk was tuned to
  // (with the feedback the camera sends 2.3 Mbit/s and the recovery after the cap takes longer, docs in
  // server/sfu/README.md "Bandwidth per subscriber").
  h: async ({ startSfu, coturn, turnRelay }, use) =>
    use(await startSfu({ turn: turnVia(turnRelay.port, coturn), uplinkFeedback: false })),
});

// npm run test:e2e installs coturn when it is missing (scripts/ensure-test-tools.mjs): the spec always runs.
if (!coturnInstalled())
  throw new Error('coturn is not installed (apt-get install coturn): the bandwidth spec needs it');

test('capped at 300 kbit/s the viewer gets the low layer and keeps decoding; at 90 kbit/s video pauses, audio flows; lifted, the high layer comes back', async ({
  h,
  link,
  openCaller,
}) => {
  test.setTimeout(BANDWIDTH_WALK_BOUND_MS + 30_000);
  const took = await bandwidthWalk(
    h,
    link,
    (identity, room, options) => openCaller(h, identity, room, options),
    'capped',
  );
  for (const [step, s] of Object.entries(took))
    test.info().annotations.push({ type: `${step} after`, description: `${s.toFixed(1)} s` });
});
