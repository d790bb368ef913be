// Connection quality: a caller whose media crosses a lossy link (relay-only through coturn, with a userspace UDP
// relay in front of coturn that drops a share of datagrams) is rated from what the SFU sees. Without loss the
// others see it as excellent; at 10 % loss as poor, and it sees so itself.
import { type Browser, type BrowserContext, expect, test } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import { type Coturn, coturnInstalled, startCoturn } from './sfu-page/coturn';
import { type SfuHarness, startSfuHarness } from './sfu-page/harness';
import { startUdpRelay, type UdpRelay } from './sfu-page/udp-relay';
import { call, openCaller } from './sfu-page/callers';

test.use({ launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...chromiumArgs, '--autoplay-policy=no-user-gesture-required'] } });

const missing = !coturnInstalled();
if (missing && process.env.CI) throw new Error('coturn is not installed (apt-get install coturn): the quality spec must run in CI');
test.skip(missing, 'coturn is not installed here (apt-get install -y coturn)');

let coturn: Coturn;
let relay: UdpRelay;
let h: SfuHarness;
const contexts: BrowserContext[] = [];

test.beforeAll(async () => {
  coturn = await startCoturn();
  relay = await startUdpRelay(coturn.port);
  h = await startSfuHarness({ turn: { urls: [`turn:127.0.0.1:${relay.port}?transport=udp`], secret: coturn.secret } });
});
test.afterAll(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
  await h?.close();
  await relay?.close();
  await coturn?.close();
});


const open = (browser: Browser, identity: string, room: string, options: Record<string, unknown>) =>
  openCaller(browser, h, contexts, identity, room, options);

test('a caller on a clean link reads excellent, on a 10 % lossy link poor', async ({ browser }) => {
  const room = 'quality';
  // The caller under test reaches the SFU only through the relay (and coturn); it sends a steady tone.
  const far = await open(browser, 'far', room, { camera: false, tone: 'on', relay: true });
  const near = await open(browser, 'near', room, { camera: false, microphone: false });

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
