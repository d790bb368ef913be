// Connection quality: a caller whose media crosses a lossy link (relay-only through coturn, with a userspace UDP
// relay in front of coturn that drops a share of datagrams) is rated from what the SFU sees. Without loss the
// others see it as excellent; at 10 % loss as poor, and it sees so itself.
import { expect, mediaTest as test } from './fixtures';
import { audioWindow, call } from './sfu-page/callers';
import { coturnInstalled } from './sfu-page/coturn';

// npm run test:e2e installs coturn when it is missing (scripts/ensure-test-tools.mjs): the spec always runs.
if (!coturnInstalled()) throw new Error('coturn is not installed (apt-get install coturn): the quality spec needs it');

test('a caller on a clean link reads excellent, on a 10 % lossy link poor', async ({
  relayedSfu: h,
  link: relay,
  openCaller,
}) => {
  const room = 'quality';
  // The caller under test reaches the SFU only through the relay (and coturn); it sends a steady tone.
  const far = await openCaller(h, 'far', room, { camera: false, tone: 'on', relay: true });
  const near = await openCaller(h, 'near', room, { camera: false, microphone: false });

  await expect.poll(() => call<string>(near, 'quality', 'far'), { timeout: 20_000 }).toBe('excellent');
  // Still so four seconds of its audio later.
  await audioWindow(h, room, 'far', 200);
  expect(await call<string>(near, 'quality', 'far')).toBe('excellent');

  relay.setLoss(0.1);
  await expect.poll(() => call<string>(near, 'quality', 'far'), { timeout: 20_000 }).toBe('poor');
  // Still poor four seconds of its audio on (judged over several seconds, not one unlucky window: the SFU receives
  // 90 % of the packets, so 180 of them), and the caller sees it too.
  await audioWindow(h, room, 'far', 180);
  expect(await call<string>(near, 'quality', 'far')).toBe('poor');
  await expect.poll(() => call<string>(far, 'quality', 'far'), { timeout: 10_000 }).toBe('poor');
});
