// Calls in a secret chat (docs/secret-chats.md "Calls") in real Chromium with fake camera and microphone, against
// the real server and its embedded media server: the media is encrypted end to end with a key the devices in the call
// make from their MLS group and a secret only they hold, video goes both ways through the media server; in a secret
// group's call, the one who leaves is left out of the next key and the others go on; a browser that cannot encrypt
// frames gets a notice instead of a call. On the media server alone, with livekit's frame encryption as the app sets it up,
// a participant with the same key decodes (also across a simulcast layer switch) and one with another key does not.
import type { BrowserContext, Page } from '@playwright/test';
import { tick } from './controls';
import { expect as baseExpect, type E2EUser, mediaTest as test } from './fixtures';
import { call } from './sfu-page/callers';
import { mintToken } from './sfu-page/harness';
import { makeFriends, signInContext } from './users';

// Media, MLS and sockets on a shared 2-core machine: more than the default 5 s per assertion.
const expect = baseExpect.configure({ timeout: 20_000 });

const ENCRYPTED = 'Звонок защищён сквозным шифрованием';
const UNSUPPORTED = 'Этот браузер не поддерживает зашифрованные звонки';

async function openPage(context: BrowserContext, label: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`[${label}] page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[${label}] ${m.text()}`);
  });
  await page.goto('/');
  await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 30_000 });
  return page;
}

/** Opening «Новый секретный чат» once makes this browser a device (others can then add it). */
async function becomeDevice(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый секретный чат' });
  await expect(dialog.getByRole('button', { name: 'Создать' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Отмена' }).click();
}

/** `a` creates a secret chat with `b` (whose browser is a device) and writes; `b` opens it and reads. */
async function secretChat(pa: Page, pb: Page, b: E2EUser): Promise<void> {
  await becomeDevice(pb);
  await pa.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = pa.getByRole('dialog', { name: 'Новый секретный чат' });
  await tick(dialog.getByRole('checkbox', { name: new RegExp(b.displayName) }));
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(pa).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  const composer = pa.getByRole('textbox', { name: 'Сообщение' });
  await composer.fill('созвонимся?');
  await composer.press('Enter');
  // Борис's device joined the group: it reads the message.
  await pb.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
  await expect(pb.locator('.msg-text').filter({ hasText: 'созвонимся?' })).toBeVisible({ timeout: 30_000 });
}

/** Width of the remote participants' decoded camera video in the call overlay (0 while none has arrived). */
const remoteVideoWidth = (page: Page) =>
  page.evaluate(() => {
    const videos = [
      ...document.querySelectorAll<HTMLVideoElement>('.call-overlay [data-lk-local-participant="false"] video'),
    ];
    return Math.max(0, ...videos.map((v) => v.videoWidth));
  });

/** Frames the call overlay's remote camera videos have decoded so far, in all. */
const remoteFrames = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLVideoElement>('.call-overlay [data-lk-local-participant="false"] video')]
      .map((v) => v.getVideoPlaybackQuality().totalVideoFrames)
      .reduce((a, b) => a + b, 0),
  );
/** The order number of the media key the conference uses (group epoch + the call secret's generation). */
const keyOrder = async (page: Page) =>
  Number((await page.locator('.conference').getAttribute('data-e2ee-epoch')) ?? Number.NaN);

const incomingDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Входящий аудио/видео звонок' });
const callOverlay = (page: Page) => page.getByRole('dialog', { name: /Звонок|Вызов/ });

test('A calls B in a secret chat: encrypted end to end, video both ways', async ({ createUser, newContext, srv }) => {
  test.setTimeout(180_000);
  const [anna, boris] = await Promise.all([createUser('Анна', 'a'), createUser('Борис', 'b')]);
  await makeFriends(srv.url, anna, boris);
  const contexts = await Promise.all(
    [anna, boris].map(async (u) => {
      const c = await newContext({ baseURL: srv.url, permissions: ['camera', 'microphone'] });
      await signInContext(c, u);
      return c;
    }),
  );
  const pa = await openPage(contexts[0]!, 'anna');
  const pb = await openPage(contexts[1]!, 'boris');
  await secretChat(pa, pb, boris);

  await pa.getByRole('button', { name: 'Позвонить с видео', exact: true }).click();
  await expect(incomingDialog(pb)).toContainText('Видеозвонок', { timeout: 20_000 });
  await pb.getByRole('button', { name: 'Ответить с видео' }).click();

  for (const page of [pa, pb]) {
    await expect(callOverlay(page).getByTestId('call-e2ee')).toHaveText(`🔒 ${ENCRYPTED}`);
    // The room encrypts (livekit's Room.isE2EEEnabled, set on the conference).
    await expect(page.locator('.conference[data-e2ee="on"]')).toHaveCount(1, { timeout: 30_000 });
    await expect
      .poll(() => remoteVideoWidth(page), { timeout: 45_000, message: 'decodes the other’s video' })
      .toBeGreaterThan(0);
  }

  await pb.getByRole('button', { name: 'Завершить звонок' }).click();
  await expect(callOverlay(pb)).toHaveCount(0);
  await expect(callOverlay(pa)).toHaveCount(0);
});

test('a secret group’s call: who leaves is left out of the next key, the others go on seeing each other', async ({
  createUser,
  newContext,
  srv,
}) => {
  test.setTimeout(240_000);
  const [anna, boris, vera] = await Promise.all([
    createUser('Анна', 'a'),
    createUser('Борис', 'b'),
    createUser('Вера', 'v'),
  ]);
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  const contexts = await Promise.all(
    [anna, boris, vera].map(async (u) => {
      const c = await newContext({ baseURL: srv.url, permissions: ['camera', 'microphone'] });
      await signInContext(c, u);
      return c;
    }),
  );
  const pa = await openPage(contexts[0]!, 'anna');
  const pb = await openPage(contexts[1]!, 'boris');
  const pv = await openPage(contexts[2]!, 'vera');
  await becomeDevice(pb);
  await becomeDevice(pv);
  await pa.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = pa.getByRole('dialog', { name: 'Новый секретный чат' });
  await tick(dialog.getByRole('checkbox', { name: new RegExp(boris.displayName) }));
  await tick(dialog.getByRole('checkbox', { name: new RegExp(vera.displayName) }));
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(pa).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  const composer = pa.getByRole('textbox', { name: 'Сообщение' });
  await composer.fill('созвонимся втроём?');
  await composer.press('Enter');
  for (const page of [pb, pv]) {
    await page.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
    await expect(page.locator('.msg-text').filter({ hasText: 'созвонимся втроём?' })).toBeVisible({ timeout: 30_000 });
  }

  await pa.getByRole('button', { name: 'Позвонить с видео', exact: true }).click();
  for (const page of [pb, pv]) {
    await expect(incomingDialog(page)).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Ответить с видео' }).click();
  }
  for (const page of [pa, pb, pv]) {
    await expect(page.locator('.conference[data-e2ee="on"]')).toHaveCount(1, { timeout: 30_000 });
  }
  for (const page of [pa, pb, pv]) {
    await expect.poll(() => remoteFrames(page), { timeout: 45_000, message: 'decodes both others' }).toBeGreaterThan(0);
  }
  // One key for the three: the same order number on every page (the first secret, made by the first one in).
  await expect
    .poll(async () => {
      const orders = await Promise.all([pa, pb, pv].map(keyOrder));
      return orders.every((o) => o > 0) ? new Set(orders).size : 0;
    })
    .toBe(1);
  const before = await keyOrder(pa);

  // Борис leaves: the lead of the two left makes a new secret, sealed to their keys only; both move to it.
  await callOverlay(pb).getByRole('button', { name: 'Выйти из звонка' }).click();
  await expect(callOverlay(pb)).toHaveCount(0);
  for (const page of [pa, pv]) await expect.poll(() => keyOrder(page), { timeout: 20_000 }).toBe(before + 1);
  // Under the new key each still decodes the other: frames keep coming (a key only one of them had decodes nothing).
  for (const page of [pa, pv]) {
    const frames = await remoteFrames(page);
    await expect.poll(() => remoteFrames(page), { timeout: 30_000 }).toBeGreaterThan(frames + 30);
  }
});

test('a browser that cannot encrypt frames says so instead of calling in the clear', async ({
  createUser,
  newContext,
  srv,
}) => {
  test.setTimeout(120_000);
  const [anna, boris] = await Promise.all([createUser('Анна', 'a'), createUser('Борис', 'b')]);
  await makeFriends(srv.url, anna, boris);
  const ca = await newContext({ baseURL: srv.url, permissions: ['camera', 'microphone'] });
  await signInContext(ca, anna);
  // This "browser" has neither encoded insertable streams nor RTCRtpScriptTransform.
  await ca.addInitScript(() => {
    const w = window as unknown as { RTCRtpScriptTransform?: unknown };
    delete w.RTCRtpScriptTransform;
    delete (RTCRtpSender.prototype as unknown as { createEncodedStreams?: unknown }).createEncodedStreams;
  });
  const cb = await newContext({ baseURL: srv.url });
  await signInContext(cb, boris);
  const pa = await openPage(ca, 'anna');
  const pb = await openPage(cb, 'boris');
  await secretChat(pa, pb, boris);

  await pa.getByRole('button', { name: 'Позвонить', exact: true }).click();
  await expect(callOverlay(pa).getByRole('alert')).toHaveText(UNSUPPORTED);
  await expect(pa.locator('.conference')).toHaveCount(0);
  await expect(callOverlay(pa).getByTestId('call-e2ee')).toHaveCount(0);
  await pa.getByRole('button', { name: 'Отменить вызов' }).click();
  await expect(callOverlay(pa)).toHaveCount(0);
});

type Received = { identity: string; kind: string; width: number; framesDecoded: number }[];
const video = async (page: Page, identity: string) =>
  (await call<Received>(page, 'received')).find((t) => t.identity === identity && t.kind === 'video');

test('the media server forwards encrypted frames as they are: the same key decodes, another key does not', async ({
  sfuHarness,
  newContext,
}) => {
  test.setTimeout(120_000);
  const key = 'a1'.repeat(32);
  const room = `secret-${Date.now()}`;
  const open = async (identity: string, options: Record<string, unknown>) => {
    const context = await newContext({ permissions: ['camera', 'microphone'] });
    const page = await context.newPage();
    await page.goto(sfuHarness.pageUrl);
    await call(page, 'join', sfuHarness.sfu.url, await mintToken(identity, room), options);
    return page;
  };
  // Simulcast on, as a layer switch is the one place the media server reads the VP8 bytes.
  const anna = await open('anna', { e2ee: { epoch: 5, key }, simulcast: true, microphone: false });
  const boris = await open('boris', { e2ee: { epoch: 5, key }, camera: false, microphone: false });
  const eve = await open('eve', { e2ee: { epoch: 5, key: 'b2'.repeat(32) }, camera: false, microphone: false });

  expect(await call(anna, 'encryption')).toMatchObject({ local: true });
  await expect.poll(async () => (await video(boris, 'anna'))?.width ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
  await expect
    .poll(async () => (await call<{ remote: boolean[] }>(boris, 'encryption')).remote, { timeout: 15_000 })
    .toContain(true);

  // Switching layers needs a keyframe the media server finds by the frame's unencrypted first bytes.
  for (const quality of ['low', 'high'] as const) {
    await call(boris, 'setQuality', 'anna', quality);
    const before = (await video(boris, 'anna'))?.framesDecoded ?? 0;
    await expect
      .poll(async () => (await video(boris, 'anna'))?.framesDecoded ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(before + 10);
  }

  // Eve, in the same room with another key, receives the frames and decodes none of them.
  const eveGets = () => call<{ packets: number; decoded: number }>(eve, 'inbound', 'anna');
  await expect.poll(async () => (await eveGets()).packets, { timeout: 30_000 }).toBeGreaterThan(300);
  expect((await eveGets()).decoded).toBe(0);
  expect((await video(boris, 'anna'))?.framesDecoded ?? 0).toBeGreaterThan(0);
});
