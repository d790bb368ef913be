// TURN through coturn: the SFU hands each participant short-lived coturn credentials in its JoinResponse, and two
// Chromium callers forced to relay-only still exchange video, over TURN/UDP and over TURN/TCP. coturn itself
// refuses a wrong secret and an expired username.
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { turnCredentials } from '../server/sfu/turn';
import { chromiumArgs } from '../playwright.config';
import { type Coturn, coturnInstalled, startCoturn } from './sfu-page/coturn';
import { mintToken, type SfuHarness, startSfuHarness } from './sfu-page/harness';
import { call } from './sfu-page/callers';

test.use({ launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...chromiumArgs, '--autoplay-policy=no-user-gesture-required'] } });

// Outside CI a machine without coturn skips with the reason; CI installs it (.ci/run), so there it must run.
const missing = !coturnInstalled();
if (missing && process.env.CI) throw new Error('coturn is not installed (apt-get install coturn): the TURN spec must run in CI');
test.skip(missing, 'coturn is not installed here (apt-get install -y coturn)');

let coturn: Coturn;
const contexts: BrowserContext[] = [];
const harnesses: SfuHarness[] = [];

test.beforeAll(async () => {
  coturn = await startCoturn();
});
test.afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
  for (const h of harnesses.splice(0)) await h.close();
});
test.afterAll(async () => {
  await coturn?.close();
});


async function relayCaller(browser: Browser, h: SfuHarness, identity: string, room: string): Promise<Page> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(h.pageUrl);
  await call(page, 'join', h.sfu.url, await mintToken(identity, room), { relay: true, microphone: false });
  return page;
}

async function expectVideoFrom(page: Page, identity: string): Promise<void> {
  await expect
    .poll(async () => {
      const got = await call<Array<{ identity: string; kind: string; framesDecoded: number }>>(page, 'received');
      return got.some((r) => r.identity === identity && r.kind === 'video' && r.framesDecoded > 0);
    }, { timeout: 30_000, message: `video from ${identity}` })
    .toBe(true);
}

for (const transport of ['udp', 'tcp'] as const) {
  test(`relay-only callers exchange video through coturn over TURN/${transport}`, async ({ browser }) => {
    const h = await startSfuHarness({ turn: { urls: [`turn:127.0.0.1:${coturn.port}?transport=${transport}`], secret: coturn.secret } });
    harnesses.push(h);
    const room = `turn-${transport}`;
    const ann = await relayCaller(browser, h, 'ann', room);
    const ben = await relayCaller(browser, h, 'ben', room);
    await expectVideoFrom(ann, 'ben');
    await expectVideoFrom(ben, 'ann');
    // The media really took the relay, over the transport asked for.
    for (const page of [ann, ben]) expect(await call<string[]>(page, 'paths')).toEqual([`relay/${transport}`]);
  });
}

test('coturn refuses credentials signed with another secret and expired ones', async ({ page }) => {
  const h = await startSfuHarness();
  harnesses.push(h);
  await page.goto(h.pageUrl);
  const urls = [`turn:127.0.0.1:${coturn.port}?transport=udp`];
  const probe = (c: { username: string; credential: string }) =>
    call<{ relays: number; errors: number[] }>(page, 'probeTurn', urls, c.username, c.credential);

  const good = await probe(turnCredentials(coturn.secret, 'probe', 600));
  expect(good.relays).toBeGreaterThan(0);

  const wrong = await probe(turnCredentials('not-the-secret', 'probe', 600));
  expect(wrong.relays).toBe(0);
  expect(wrong.errors).toContain(401);

  const expired = await probe(turnCredentials(coturn.secret, 'probe', 600, Date.now() - 3600_000));
  expect(expired.relays).toBe(0);
  expect(expired.errors).toContain(401);
});
