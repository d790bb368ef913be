// Two and three browsers (livekit-client in Chromium with fake camera and microphone) calling through the
// embedded SFU: media both ways, a late joiner, chat, screen share, mute, leave and a refused token.
import type { Page } from '@playwright/test';
import { expect, mediaTest } from './fixtures';
import { call } from './sfu-page/callers';
import { workersFromEnv } from '../server/sfu/index';
import { mintToken, type SfuHarness, startSfuHarness } from './sfu-page/harness';

interface Received {
  identity: string;
  source: string;
  kind: string;
  width: number;
  framesDecoded: number;
}

type Participant = (
  identity: string,
  room: string,
  singlePeerConnection?: boolean,
  simulcast?: boolean,
  adaptive?: boolean,
) => Promise<Page>;

/**
 * `h`: an SFU with its rooms on media workers, as `npm start` runs it (SFU_WORKERS, one per core by default);
 * `openParticipant(…)`: a browser that joined a room of it (its errors logged).
 */
const test = mediaTest.extend<{ h: SfuHarness; openParticipant: Participant }, { sfuOnWorkers: SfuHarness }>({
  sfuOnWorkers: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const h = await startSfuHarness({ workers: workersFromEnv(process.env) });
      await use(h);
      await h.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  h: async ({ sfuOnWorkers }, use) => use(sfuOnWorkers),
  openParticipant: async ({ h, newContext }, use) => {
    await use(async (identity, room, singlePeerConnection = true, simulcast = false, adaptive = false) => {
      const context = await newContext({ permissions: ['camera', 'microphone'] });
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') console.log(`[${identity}] ${m.text()}`);
      });
      await page.goto(h.pageUrl);
      const token = await mintToken(identity, room);
      await call(page, 'join', h.sfu.url, token, { singlePeerConnection, simulcast, adaptive });
      return page;
    });
  },
});

async function expectVideoFrom(page: Page, identity: string, source = 'camera'): Promise<void> {
  await expect
    .poll(
      async () => {
        const got = await call<Received[]>(page, 'received');
        const v = got.find((r) => r.identity === identity && r.source === source);
        return v ? v.framesDecoded > 0 && v.width > 0 : false;
      },
      { timeout: 20_000, message: `video (${source}) from ${identity}` },
    )
    .toBe(true);
}

async function expectAudioFrom(page: Page, identity: string): Promise<void> {
  await expect
    .poll(() => call<number>(page, 'audioFrom', identity), { timeout: 20_000, message: `audio from ${identity}` })
    .toBeGreaterThan(0.001);
}

test('two browsers see and hear each other, a late joiner gets every track, chat, screen share, mute and leave', async ({
  openParticipant,
}) => {
  const room = 'room-main';
  const alice = await openParticipant('alice', room);
  const bob = await openParticipant('bob', room);

  await expectVideoFrom(alice, 'bob');
  await expectVideoFrom(bob, 'alice');
  await expectAudioFrom(alice, 'bob');
  await expectAudioFrom(bob, 'alice');

  // Chat both ways: text streams (lk.chat) and plain reliable data packets.
  await call(alice, 'chat', 'привет от alice');
  await call(bob, 'chat', 'hello from bob');
  const chatOf = (page: Page) => call<Array<{ from: string; text: string; via: string }>>(page, 'chats');
  await expect
    .poll(() => chatOf(bob))
    .toEqual(
      expect.arrayContaining([
        { from: 'alice', text: 'привет от alice', via: 'text-stream' },
        { from: 'alice', text: 'привет от alice', via: 'data' },
      ]),
    );
  await expect
    .poll(() => chatOf(alice))
    .toEqual(expect.arrayContaining([{ from: 'bob', text: 'hello from bob', via: 'text-stream' }]));
  // Lossy packets travel on the _lossy channel; a few in case one is dropped.
  for (let i = 0; i < 3; i++) await call(bob, 'lossy', 'lossy from bob');
  await expect.poll(() => chatOf(alice)).toContainEqual({ from: 'bob', text: 'lossy from bob', via: 'lossy' });

  // A third participant joins late and receives all four tracks already flowing.
  const carol = await openParticipant('carol', room);
  for (const who of ['alice', 'bob']) {
    await expectVideoFrom(carol, who);
    await expectAudioFrom(carol, who);
  }
  await expectVideoFrom(alice, 'carol');

  // Screen share arrives at the others.
  await call(alice, 'shareScreen');
  await expectVideoFrom(bob, 'alice', 'screen_share');
  await expectVideoFrom(carol, 'alice', 'screen_share');

  // Mute is seen.
  await call(bob, 'setMicrophone', false);
  await expect.poll(() => call<string[]>(alice, 'events')).toContain('muted:bob:microphone');
  await call(bob, 'setMicrophone', true);
  await expect.poll(() => call<string[]>(alice, 'events')).toContain('unmuted:bob:microphone');

  // Leave is seen.
  await call(carol, 'leave');
  await expect.poll(() => call<string[]>(alice, 'participants')).toEqual(['bob']);
  await expect.poll(() => call<string[]>(bob, 'events')).toContain('left:carol');
});

test('a bad token is refused with a clear error', async ({ h, page }) => {
  await page.goto(h.pageUrl);
  const wrong = await mintToken('mallory', 'room-x', {}, { secret: 'not-the-secret-not-the-secret-not-the-secret' });
  expect(await call<string>(page, 'connectOnly', h.sfu.url, wrong)).toMatch(/NotAllowed|not allowed|invalid token/i);
  const expired = await mintToken('mallory', 'room-x', {}, { ttl: -60 });
  expect(await call<string>(page, 'connectOnly', h.sfu.url, expired)).toMatch(/expired/i);
  expect(await h.sfu.participants('room-x')).toEqual([]);
});

for (const singlePeerConnection of [true, false]) {
  const path = singlePeerConnection ? '/rtc/v1' : 'legacy /rtc';
  test(`a dropped signal connection resumes the same session and media keeps flowing (${path})`, async ({
    openParticipant,
  }) => {
    const room = `room-resume-${singlePeerConnection}`;
    const dave = await openParticipant('dave', room, singlePeerConnection);
    const erin = await openParticipant('erin', room);
    await expectVideoFrom(erin, 'dave');
    await expectVideoFrom(dave, 'erin');
    const sid = await call<string>(dave, 'localSid');

    await call(dave, 'simulate', 'signal-reconnect');
    await expect.poll(() => call<string[]>(dave, 'events'), { timeout: 20_000 }).toContain('reconnected');
    expect(await call<string>(dave, 'localSid')).toBe(sid);
    expect(await call<string[]>(erin, 'events')).not.toContain('left:dave');

    // Frames keep being decoded on both sides after the resume.
    const frames = async (page: Page, from: string) =>
      (await call<Received[]>(page, 'received')).find((r) => r.identity === from && r.kind === 'video')
        ?.framesDecoded ?? 0;
    const before = { dave: await frames(dave, 'erin'), erin: await frames(erin, 'dave') };
    await expect.poll(() => frames(dave, 'erin'), { timeout: 15_000 }).toBeGreaterThan(before.dave + 10);
    await expect.poll(() => frames(erin, 'dave'), { timeout: 15_000 }).toBeGreaterThan(before.erin + 10);
    await call(dave, 'chat', 'after resume');
    await expect
      .poll(() => call<Array<{ text: string }>>(erin, 'chats'))
      .toContainEqual(expect.objectContaining({ text: 'after resume' }));
  });
}

test('a full reconnect replaces the old session and media flows again', async ({ h, openParticipant }) => {
  const room = 'room-full-reconnect';
  const fay = await openParticipant('fay', room);
  const gus = await openParticipant('gus', room);
  await expectVideoFrom(gus, 'fay');
  await call(fay, 'simulate', 'full-reconnect');
  await expect.poll(() => call<string[]>(fay, 'events'), { timeout: 20_000 }).toContain('reconnected');
  await expect.poll(async () => (await h.sfu.participants(room)).map((p) => p.identity).sort()).toEqual(['fay', 'gus']);
  const frames = async () =>
    (await call<Received[]>(gus, 'received')).find((r) => r.identity === 'fay' && r.kind === 'video')?.framesDecoded ??
    0;
  await expect.poll(frames, { timeout: 20_000 }).toBeGreaterThan(10);
  await expectVideoFrom(fay, 'gus');
});

// On media workers whatever SFU_WORKERS says: this walk is about them.
const onTwoWorkers = test.extend<{ h: SfuHarness }>({
  h: async ({ startSfu }, use) => use(await startSfu({ workers: 2 })),
});

onTwoWorkers(
  'a media worker that dies: its browsers are told, rejoin on a live worker and media flows again',
  async ({ h, openParticipant }) => {
    const workers = h.sfu.workers;
    if (!workers) throw new Error('the SFU was started without media workers');
    const room = 'room-worker-dies';
    const ivy = await openParticipant('ivy', room);
    const jon = await openParticipant('jon', room);
    await expectVideoFrom(jon, 'ivy');
    await workers.terminate(workers.placement().get(room) ?? -1);
    // The leave asks livekit-client for a full reconnect: a new join, which lands on a live worker.
    for (const page of [ivy, jon])
      await expect.poll(() => call<string[]>(page, 'events'), { timeout: 20_000 }).toContain('reconnected');
    await expect
      .poll(async () => (await h.sfu.participants(room)).map((p) => p.identity).sort())
      .toEqual(['ivy', 'jon']);
    // Media flows through the room again: what the SFU forwards grows (its figures come a second late).
    const forwarded = h.sfu.stats().packetsOut;
    await expect.poll(() => h.sfu.stats().packetsOut, { timeout: 20_000 }).toBeGreaterThan(forwarded + 100);
  },
);

test('a browser on the legacy two-peer-connection path calls one on /rtc/v1', async ({ h, openParticipant }) => {
  const room = 'room-legacy';
  const old = await openParticipant('old', room, false);
  const neu = await openParticipant('new', room, true);
  await expectVideoFrom(old, 'new');
  await expectVideoFrom(neu, 'old');
  await expectAudioFrom(old, 'new');
  await expectAudioFrom(neu, 'old');
  expect((await h.sfu.participants(room)).map((p) => p.mode).sort()).toEqual(['dual', 'single']);
  // The SFU is the DTLS server on every connection of both flows, and picks AES_CM (server/sfu/session/peer.ts).
  expect(await call(old, 'ciphers')).toEqual(['SRTP_AES128_CM_HMAC_SHA1_80']);
  expect(await call(neu, 'ciphers')).toEqual(['SRTP_AES128_CM_HMAC_SHA1_80']);
  await call(old, 'chat', 'from the old path');
  await expect
    .poll(() => call<Array<{ text: string }>>(neu, 'chats'))
    .toContainEqual(expect.objectContaining({ text: 'from the old path' }));
  await call(neu, 'chat', 'from the new path');
  await expect
    .poll(() => call<Array<{ text: string }>>(old, 'chats'))
    .toContainEqual(expect.objectContaining({ text: 'from the new path' }));
});

// Layer choice by request alone, on a media server of its own that does not fit layers to downlink estimates
// (sfu-bandwidth.spec.ts tests that): a loaded machine can make loopback look congested and hold a subscriber lower.
// In this process, where the spec reads each subscription's layer.
const requestedLayers = test.extend<{ h: SfuHarness }>({
  h: async ({ startSfu }, use) => use(await startSfu({ bandwidthAllocation: false })),
});

requestedLayers('simulcast: each subscriber gets the best live layer it asked for', async ({ h, openParticipant }) => {
  const room = 'room-simulcast';
  const pub = await openParticipant('sim-pub', room, true, true);
  const high = await openParticipant('sim-high', room);
  const low = await openParticipant('sim-low', room);
  const participant = (identity: string) =>
    [...(h.sfu.rooms.get(room)?.participants.values() ?? [])].find((x) => x.identity === identity);
  const camera = () => [...(participant('sim-pub')?.published.values() ?? [])].find((t) => t.kind === 'video');
  await expect.poll(() => camera()?.info.simulcast, { message: 'publisher announced layers' }).toBe(true);
  await expectVideoFrom(high, 'sim-pub');
  await expectVideoFrom(low, 'sim-pub');
  await call(low, 'setQuality', 'sim-pub', 'low');

  // Chrome turns layers on and off with its bandwidth and CPU estimates: the SFU must follow the live ones.
  const rank = ['q', 'h', 'f'];
  const layerOf = (identity: string) => {
    const t = camera();
    const live = (t?.liveLayers() ?? []).sort((a, b) => rank.indexOf(a) - rank.indexOf(b));
    const layer = t ? participant(identity)?.subscriptions.get(t.sid)?.layer : undefined;
    return { layer, best: live.at(-1), live: live.length };
  };
  await expect
    .poll(
      () => {
        const l = layerOf('sim-high');
        return l.live >= 2 && l.layer === l.best ? 'best' : JSON.stringify(l);
      },
      { timeout: 25_000, message: 'default subscriber on the best live layer' },
    )
    .toBe('best');

  // What each decodes shows it: the low one gets the quarter-size layer (320×180 of 1280×720), the other a bigger one.
  const widthAt = async (page: Page) =>
    (await call<Received[]>(page, 'received')).find((r) => r.identity === 'sim-pub' && r.kind === 'video')?.width ?? 0;
  const lowState = async () => ({ layer: layerOf('sim-low').layer, width: await widthAt(low) });
  await expect
    .poll(
      async () => {
        const { layer, width } = await lowState();
        return layer === 'q' && width > 0 && width <= 320 ? 'q' : JSON.stringify({ width, ...layerOf('sim-low') });
      },
      { timeout: 25_000, message: 'low subscriber decodes the q layer' },
    )
    .toBe('q');
  await expect.poll(async () => (await widthAt(high)) > (await widthAt(low)), { timeout: 15_000 }).toBe(true);
  const framesAt = async (page: Page) =>
    (await call<Received[]>(page, 'received')).find((r) => r.identity === 'sim-pub' && r.kind === 'video')
      ?.framesDecoded ?? 0;
  const before = await framesAt(low);
  await expect.poll(() => framesAt(low), { timeout: 10_000 }).toBeGreaterThan(before + 10);
  await expectVideoFrom(pub, 'sim-high');
});

test('clients with adaptive stream and dynacast on (visibility-driven track settings) still get media', async ({
  openParticipant,
}) => {
  const room = 'room-adaptive';
  const one = await openParticipant('ad-1', room, true, true, true);
  const two = await openParticipant('ad-2', room, true, false, true);
  await expectVideoFrom(one, 'ad-2');
  await expectVideoFrom(two, 'ad-1');
  await expectAudioFrom(one, 'ad-2');
});

test('a browser that vanishes without leaving is removed after the ping timeout', async ({
  startSfu,
  openCaller,
  newContext,
}) => {
  // An SFU of its own with a short ping timeout (clients ping every second, silence for 4 s ends a session), so the
  // wait is the rule's and not the default 15 s.
  const h = await startSfu({ pingInterval: 1, pingTimeout: 4, workers: workersFromEnv(process.env) });
  const room = 'room-vanish';
  const stays = await openCaller(h, 'stays', room);
  const context = await newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await page.goto(h.pageUrl);
  await call(page, 'join', h.sfu.url, await mintToken('vanishes', room));
  await expectVideoFrom(stays, 'vanishes');
  // A crashed renderer sends no leave (closing the page would: livekit-client disconnects on pagehide).
  await page.goto('chrome://crash').catch(() => {});
  const crashed = Date.now();
  expect(await call<string[]>(stays, 'participants')).toEqual(['vanishes']);
  await expect.poll(() => call<string[]>(stays, 'participants'), { timeout: 15_000 }).toEqual([]);
  // Not before the timeout: the sweep ends a session only after 4 s without a ping.
  expect(Date.now() - crashed).toBeGreaterThanOrEqual(3_000);
  expect(await call<string[]>(stays, 'events')).toContain('left:vanishes');
});
