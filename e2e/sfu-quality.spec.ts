// Connection quality: a caller whose media crosses a lossy link (relay-only through coturn, with a userspace UDP
// relay in front of coturn that drops a share of datagrams) is rated from what the SFU sees. Without loss the
// others see it as excellent; at 10 % loss as poor, and it sees so itself.
import { expect, mediaTest as test } from './fixtures';
import { call } from './sfu-page/callers';
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
  await new Promise((r) => setTimeout(r, 4000));
  expect(await call<string>(near, 'quality', 'far')).toBe('excellent');

  relay.setLoss(0.1);
  await expect.poll(() => call<string>(near, 'quality', 'far'), { timeout: 20_000 }).toBe('poor');
  // Still poor a few seconds on (judged over several seconds, not one unlucky window), and the caller sees it too.
  await new Promise((r) => setTimeout(r, 4000));
  expect(await call<string>(near, 'quality', 'far')).toBe('poor');
  await expect.poll(() => call<string>(far, 'quality', 'far'), { timeout: 10_000 }).toBe('poor');
});
