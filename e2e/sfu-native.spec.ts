// The native packet path (SFU_TRANSPORT=datachannel: libdatachannel through node-datachannel) with livekit-client
// in Chromium. Experimental and out of the default path: it runs only when SFU_NATIVE_TESTS=1
// (server/sfu/README.md «Native packet path»). What it claims: two browsers publishing without simulcast see and
// hear each other, chat over data channels, a late joiner gets every track, leave is seen, on /rtc/v1 and on the
// legacy /rtc flow; relay-only callers through coturn over TURN/UDP. What it does not: TURN/TCP (marked as
// failing), and Chromium's rid-only simulcast, which libdatachannel drops (the last test asserts exactly that, so it
// fails the day libdatachannel routes those layers).
import type { Page } from '@playwright/test';
import { expect, mediaTest as test } from './fixtures';
import { call } from './sfu-page/callers';
import { mintToken, type SfuHarness } from './sfu-page/harness';

interface Received {
  identity: string;
  source: string;
  kind: string;
  width: number;
  framesDecoded: number;
}

test.skip(process.env.SFU_NATIVE_TESTS !== '1', 'the native packet path is experimental: SFU_NATIVE_TESTS=1 runs it');

async function open(
  h: SfuHarness,
  newContext: (o: object) => Promise<{ newPage(): Promise<Page> }>,
  identity: string,
  room: string,
  options: { singlePeerConnection?: boolean; simulcast?: boolean } = {},
): Promise<Page> {
  const context = await newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[${identity}] ${m.text()}`);
  });
  await page.goto(h.pageUrl);
  await call(page, 'join', h.sfu.url, await mintToken(identity, room), {
    singlePeerConnection: options.singlePeerConnection ?? true,
    simulcast: options.simulcast ?? false,
    adaptive: false,
  });
  return page;
}

async function expectVideoFrom(page: Page, identity: string, timeout = 20_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const got = await call<Received[]>(page, 'received');
        const v = got.find((r) => r.identity === identity && r.kind === 'video');
        return v ? v.framesDecoded > 0 && v.width > 0 : false;
      },
      { timeout, message: `video from ${identity}` },
    )
    .toBe(true);
}

async function expectAudioFrom(page: Page, identity: string): Promise<void> {
  await expect
    .poll(() => call<number>(page, 'audioFrom', identity), { timeout: 20_000, message: `audio from ${identity}` })
    .toBeGreaterThan(0.001);
}

test('native path: two browsers see and hear each other, chat, a late joiner, leave', async ({
  startSfu,
  newContext,
}) => {
  const h = await startSfu({ transport: 'datachannel' });
  const room = 'native-main';
  const alice = await open(h, newContext, 'alice', room);
  const bob = await open(h, newContext, 'bob', room);
  await expectVideoFrom(alice, 'bob');
  await expectVideoFrom(bob, 'alice');
  await expectAudioFrom(alice, 'bob');
  await expectAudioFrom(bob, 'alice');

  await call(alice, 'chat', 'привет от alice');
  await expect
    .poll(() => call<Array<{ from: string; text: string; via: string }>>(bob, 'chats'))
    .toContainEqual({ from: 'alice', text: 'привет от alice', via: 'data' });

  const carol = await open(h, newContext, 'carol', room);
  for (const who of ['alice', 'bob']) {
    await expectVideoFrom(carol, who);
    await expectAudioFrom(carol, who);
  }
  await expectVideoFrom(alice, 'carol');

  await call(carol, 'leave');
  await expect.poll(() => call<string[]>(alice, 'participants')).toEqual(['bob']);
});

test('native path: a browser on the legacy two-peer-connection flow calls one on /rtc/v1', async ({
  startSfu,
  newContext,
}) => {
  const h = await startSfu({ transport: 'datachannel' });
  const room = 'native-mixed';
  const legacy = await open(h, newContext, 'legacy', room, { singlePeerConnection: false });
  const modern = await open(h, newContext, 'modern', room);
  await expectVideoFrom(legacy, 'modern');
  await expectVideoFrom(modern, 'legacy');
  await expectAudioFrom(legacy, 'modern');
  await expectAudioFrom(modern, 'legacy');
});

for (const relay of ['udp', 'tcp'] as const) {
  test(`native path: relay-only callers exchange video through coturn over TURN/${relay}`, async ({
    coturn,
    startSfu,
    openCaller,
  }) => {
    // Known gap: over TURN/TCP the browsers' peer connections never connect on this path (werift's connects,
    // e2e/sfu-turn.spec.ts); the cause is not found yet. Expected to fail, so it is reported once it passes.
    test.fail(relay === 'tcp', 'TURN/TCP does not connect on the native path');
    const h = await startSfu({
      transport: 'datachannel',
      turn: { urls: [`turn:127.0.0.1:${coturn.port}?transport=${relay}`], secret: coturn.secret },
    });
    const room = `native-turn-${relay}`;
    const ann = await openCaller(h, 'ann', room, { relay: true, microphone: false });
    const ben = await openCaller(h, 'ben', room, { relay: true, microphone: false });
    await expectVideoFrom(ann, 'ben', 30_000);
    await expectVideoFrom(ben, 'ann', 30_000);
    for (const page of [ann, ben]) expect(await call<string[]>(page, 'paths')).toEqual([`relay/${relay}`]);
  });
}

test('native path: a simulcast publisher’s audio arrives, its video layers are dropped by libdatachannel', async ({
  startSfu,
  newContext,
}) => {
  // The known gap, asserted as it is: when libdatachannel learns to route rid-only simulcast this test fails and
  // the README's list of what works must change.
  const h = await startSfu({ transport: 'datachannel' });
  const room = 'native-simulcast';
  await open(h, newContext, 'sim-pub', room, { simulcast: true });
  const viewer = await open(h, newContext, 'sim-view', room);
  await expectAudioFrom(viewer, 'sim-pub');
  const tracks = () =>
    [...(h.sfu.rooms.get(room)?.participants.values() ?? [])]
      .filter((p) => p.identity === 'sim-pub')
      .flatMap((p) => [...p.published.values()]);
  const camera = () => tracks().find((t) => t.kind === 'video');
  await expect.poll(() => camera()?.info.simulcast, { message: 'publisher announced layers' }).toBe(true);
  await expect.poll(() => tracks().find((t) => t.kind === 'audio')?.packetsIn ?? 0).toBeGreaterThan(50);
  await new Promise((r) => setTimeout(r, 5000));
  expect(camera()?.packetsIn).toBe(0);
});
