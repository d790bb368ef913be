// TURN through coturn: the SFU hands each participant short-lived coturn credentials in its JoinResponse, and two
// Chromium callers forced to relay-only still exchange video, over TURN/UDP and over TURN/TCP. coturn itself
// refuses a wrong secret and an expired username.
import type { Page } from '@playwright/test';
import { turnCredentials } from '../server/sfu/transport/turn';
import { expect, mediaTest as test } from './fixtures';
import { call } from './sfu-page/callers';
import { coturnInstalled } from './sfu-page/coturn';
import type { SfuHarness } from './sfu-page/harness';

// npm run test:e2e installs coturn when it is missing (scripts/ensure-test-tools.mjs): the spec always runs.
if (!coturnInstalled()) throw new Error('coturn is not installed (apt-get install coturn): the TURN spec needs it');

async function expectVideoFrom(page: Page, identity: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const got = await call<Array<{ identity: string; kind: string; framesDecoded: number }>>(page, 'received');
        return got.some((r) => r.identity === identity && r.kind === 'video' && r.framesDecoded > 0);
      },
      { timeout: 30_000, message: `video from ${identity}` },
    )
    .toBe(true);
}

for (const transport of ['udp', 'tcp'] as const) {
  test(`relay-only callers exchange video through coturn over TURN/${transport}`, async ({
    coturn,
    startSfu,
    openCaller,
  }) => {
    const h: SfuHarness = await startSfu({
      turn: { urls: [`turn:127.0.0.1:${coturn.port}?transport=${transport}`], secret: coturn.secret },
    });
    const room = `turn-${transport}`;
    const ann = await openCaller(h, 'ann', room, { relay: true, microphone: false });
    const ben = await openCaller(h, 'ben', room, { relay: true, microphone: false });
    await expectVideoFrom(ann, 'ben');
    await expectVideoFrom(ben, 'ann');
    // The media really took the relay, over the transport asked for.
    for (const page of [ann, ben]) expect(await call<string[]>(page, 'paths')).toEqual([`relay/${transport}`]);
  });
}

test('coturn refuses credentials signed with another secret and expired ones', async ({
  coturn,
  sfuHarness: h,
  page,
}) => {
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
