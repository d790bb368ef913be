// A guest in a secret chat's call (docs/secret-chats.md "Guests in encrypted calls") in real Chromium with fake
// camera and microphone, against the real server and its embedded media server: Анна and Борис call in a secret chat
// (encrypted end to end with their MLS group's key), Анна invites by link (its secret after «#»), a guest in a fresh
// browser knocks with a key of its own, Анна lets them in (the call key sealed to the guest's key), the guest's page
// says the call is encrypted and shows the same code as Анна's door, media goes both ways encrypted, Анна removes the
// guest and the members' call moves to a new key while they keep seeing each other. Neither the server's database
// nor its log holds the link's secret or any call key.
import type { BrowserContext, Page } from '@playwright/test';
import { CALL_ENCRYPTED } from '../src/ui/calls/conference-rules';
import { tick } from './controls';
import { expect as baseExpect, defaultServerOptions, type E2EUser, mediaTest as test } from './fixtures';
import { makeFriends, signInContext } from './users';

// Three browsers with media, MLS and sockets on a shared 2-core machine.
const expect = baseExpect.configure({ timeout: 20_000 });

// The server's log, read at the end (a worker of this spec's own: its settings differ).
const logLines: string[] = [];
test.use({
  serverOptions: { ...defaultServerOptions, logLevel: 'debug', logStream: { write: (l) => logLines.push(l) } },
});

async function openPage(context: BrowserContext, path: string, label: string, live = true): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`[${label}] page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[${label}] ${m.text()}`);
  });
  await page.goto(path);
  if (live) await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 30_000 });
  return page;
}

/** Keeps every peer connection the page makes, and every raw key given to livekit's frame encryption (HKDF). */
const watchPage = () => {
  const w = window as unknown as { __pcs: RTCPeerConnection[]; __keys: string[] };
  const Original = window.RTCPeerConnection;
  w.__pcs = [];
  w.__keys = [];
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      w.__pcs.push(this);
    }
  } as typeof RTCPeerConnection;
  const importKey = crypto.subtle.importKey.bind(crypto.subtle);
  crypto.subtle.importKey = ((format: string, data: BufferSource, algorithm: unknown, ...rest: unknown[]) => {
    const name = typeof algorithm === 'string' ? algorithm : (algorithm as { name?: string })?.name;
    if (format === 'raw' && name === 'HKDF') {
      const bytes = new Uint8Array(
        ArrayBuffer.isView(data) ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) : data,
      );
      w.__keys.push([...bytes].map((b) => b.toString(16).padStart(2, '0')).join(''));
    }
    return (importKey as (...a: unknown[]) => Promise<CryptoKey>)(format, data, algorithm, ...rest);
  }) as typeof crypto.subtle.importKey;
};

async function becomeDevice(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый секретный чат' });
  await expect(dialog.getByRole('button', { name: 'Создать' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Отмена' }).click();
}

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
  await pb.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
  await expect(pb.locator('.msg-text').filter({ hasText: 'созвонимся?' })).toBeVisible({ timeout: 30_000 });
}

/** Width of the remote participants' decoded camera video under `scope` (0 while none has arrived). */
const remoteVideoWidth = (page: Page, scope: string) =>
  page.evaluate((sel) => {
    const videos = [...document.querySelectorAll<HTMLVideoElement>(`${sel} [data-lk-local-participant="false"] video`)];
    return Math.max(0, ...videos.map((v) => v.videoWidth));
  }, scope);

/** Frames decoded so far of the remote cameras under `scope` (they grow only while frames decrypt). */
const framesDecoded = (page: Page, scope: string) =>
  page.evaluate((sel) => {
    const videos = [...document.querySelectorAll<HTMLVideoElement>(`${sel} [data-lk-local-participant="false"] video`)];
    return videos.reduce((n, v) => n + (v.getVideoPlaybackQuality?.().totalVideoFrames ?? 0), 0);
  }, scope);

/** Bytes of remote audio this page has received, from WebRTC's own statistics. */
const audioBytesIn = (page: Page) =>
  page.evaluate(async () => {
    const pcs = (window as unknown as { __pcs?: RTCPeerConnection[] }).__pcs ?? [];
    let bytes = 0;
    for (const pc of pcs) {
      const stats = await pc.getStats();
      stats.forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'audio') bytes += s.bytesReceived ?? 0;
      });
    }
    return bytes;
  });

const epochOf = async (page: Page) =>
  Number(await page.locator('.call-overlay .conference').getAttribute('data-e2ee-epoch'));

test('a guest joins a secret chat’s call encrypted end to end, compares the code, is removed, and the call re-keys', async ({
  createUser,
  newContext,
  srv,
}) => {
  test.setTimeout(300_000);
  const [anna, boris] = await Promise.all([createUser('Анна', 'a'), createUser('Борис', 'b')]);
  await makeFriends(srv.url, anna, boris);
  const member = async (u: E2EUser) => {
    const c = await newContext({ baseURL: srv.url, permissions: ['camera', 'microphone'] });
    await c.addInitScript(watchPage);
    await signInContext(c, u);
    return c;
  };
  const pa = await openPage(await member(anna), '/', 'anna');
  const pb = await openPage(await member(boris), '/', 'boris');
  await secretChat(pa, pb, boris);

  await pa.getByRole('button', { name: 'Позвонить с видео', exact: true }).click();
  await pb.getByRole('button', { name: 'Ответить с видео' }).click();
  for (const page of [pa, pb]) {
    await expect(page.locator('.call-overlay').getByTestId('call-e2ee')).toHaveText(`🔒 ${CALL_ENCRYPTED}`);
    await expect(page.locator('.call-overlay .conference[data-e2ee="on"]')).toHaveCount(1, { timeout: 30_000 });
    await expect.poll(() => remoteVideoWidth(page, '.call-overlay'), { timeout: 45_000 }).toBeGreaterThan(0);
  }

  // The link carries its secret after «#», which the browser never sends to the server.
  await pa.getByRole('button', { name: 'Пригласить по ссылке' }).click();
  const link = await pa.getByTestId('guest-link').inputValue();
  expect(link).toMatch(/\/g\/[\w-]{24}#k=[\w-]{43}$/);
  const linkSecretHex = Buffer.from(link.split('#k=')[1] as string, 'base64url').toString('hex');

  const ctxG = await newContext({ baseURL: srv.url, permissions: ['camera', 'microphone'] });
  await ctxG.addInitScript(watchPage);
  const url = new URL(link);
  const pg = await openPage(ctxG, url.pathname + url.hash, 'guest', false);
  await expect(pg.getByRole('heading', { name: `${anna.displayName} приглашает вас в звонок` })).toBeVisible();
  await expect(pg.locator('.lk-prejoin video')).toBeVisible({ timeout: 30_000 });
  await pg.getByPlaceholder('Ваше имя').fill('Бабушка');
  await pg.getByRole('button', { name: 'Попросить войти' }).click();
  await expect(pg.getByRole('status').filter({ hasText: 'Ждём, пока вас впустят' })).toBeVisible();

  // Both members' doors checked the guest's key against the link and show the same code.
  const knock = pa.locator('.guest-door-knock').filter({ hasText: 'Гость Бабушка хочет войти' });
  await expect(knock.getByTestId('guest-door-code')).toHaveText(/^Код: \d{3} \d{3}$/, { timeout: 30_000 });
  const memberCode = ((await knock.getByTestId('guest-door-code').textContent()) ?? '').replace('Код: ', '');
  await expect(pb.getByTestId('guest-door-code')).toHaveText(`Код: ${memberCode}`, { timeout: 30_000 });

  // «Впустить», timed on the pages' own clocks: the click on Анна's page, the first decoded frame on the guest's.
  await pa.evaluate(() => {
    document.addEventListener(
      'click',
      (e) => {
        if ((e.target as HTMLElement).closest('button')?.textContent === 'Впустить')
          (window as unknown as { __admitAt: number }).__admitAt = performance.timeOrigin + e.timeStamp;
      },
      { capture: true },
    );
  });
  // Where the time goes on the guest's page: when the call view appears, when the room is encrypted and connected.
  await pg.evaluate(() => {
    const w = window as unknown as { __marks: Record<string, number> };
    w.__marks = {};
    const mark = () => {
      const at = performance.timeOrigin + performance.now();
      if (!w.__marks.call && document.querySelector('.guest-call')) w.__marks.call = at;
      if (!w.__marks.e2ee && document.querySelector('.guest-call .conference[data-e2ee="on"]')) w.__marks.e2ee = at;
      if (!w.__marks.tile && document.querySelector('.guest-call [data-lk-local-participant="false"]'))
        w.__marks.tile = at;
    };
    new MutationObserver(mark).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const firstFrame = pg.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const tick = () => {
          const v = [
            ...document.querySelectorAll<HTMLVideoElement>('.guest-call [data-lk-local-participant="false"] video'),
          ].find((x) => x.videoWidth > 0);
          if (v) resolve(performance.timeOrigin + performance.now());
          else setTimeout(tick, 10);
        };
        tick();
      }),
  );
  await knock.getByRole('button', { name: 'Впустить' }).click();

  await expect(pg.locator('.guest-call')).toBeVisible({ timeout: 30_000 });
  await expect(pg.getByTestId('call-e2ee')).toContainText(CALL_ENCRYPTED);
  await expect(pg.getByTestId('guest-short-code')).toHaveText(`Код для сверки: ${memberCode}`);
  await expect(pg.locator('.guest-call .conference[data-e2ee="on"]')).toHaveCount(1, { timeout: 30_000 });
  const frameAt = await firstFrame;
  const admitAt = await pa.evaluate(() => (window as unknown as { __admitAt: number }).__admitAt);
  console.log(`guest (encrypted): first frame ${Math.round(frameAt - admitAt)} ms after «Впустить»`);
  const steps = await pg.evaluate(() => {
    const w = window as unknown as { __marks: Record<string, number> };
    const loads = performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .filter((e) => /token|Conference|e2ee|worker/i.test(e.name))
      .map((e) => [
        e.name.split('/').pop() ?? '',
        performance.timeOrigin + e.startTime,
        performance.timeOrigin + e.responseEnd,
      ]);
    return { marks: w.__marks, loads };
  });
  const since = (t: number) => Math.round(t - admitAt);
  console.log(
    `guest (encrypted) steps after «Впустить»: ${Object.entries(steps.marks)
      .map(([k, t]) => `${k} ${since(t)} ms`)
      .join(', ')}; loads: ${steps.loads
      .filter(([, , end]) => (end as number) > admitAt)
      .map(([name, start, end]) => `${name} ${since(start as number)}–${since(end as number)} ms`)
      .join(', ')}`,
  );

  // Seen and heard both ways, encrypted: the guest decodes the members, and they decode the guest.
  await expect.poll(() => remoteVideoWidth(pg, '.guest-call'), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect
    .poll(() => pa.locator('.call-overlay [data-guest="true"] video').evaluate((v: HTMLVideoElement) => v.videoWidth), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  await expect
    .poll(() => audioBytesIn(pg), { timeout: 30_000, message: 'the guest hears the members' })
    .toBeGreaterThan(1000);
  await expect
    .poll(() => audioBytesIn(pa), { timeout: 30_000, message: 'the members hear the guest' })
    .toBeGreaterThan(1000);

  // Removed: the guest is told so; the members' call moves to a new epoch's key and they keep seeing each other.
  const before = Math.max(await epochOf(pa), await epochOf(pb));
  await pa.getByRole('button', { name: 'Удалить из звонка: Бабушка' }).click();
  await expect(pg.getByTestId('guest-outcome')).toHaveText('Вас удалили из звонка');
  for (const page of [pa, pb]) {
    await expect.poll(() => epochOf(page), { timeout: 30_000, message: 'the call re-keys' }).toBeGreaterThan(before);
  }
  for (const page of [pa, pb]) {
    const now = await framesDecoded(page, '.call-overlay');
    await expect
      .poll(() => framesDecoded(page, '.call-overlay'), { timeout: 20_000, message: 'still decodes after re-keying' })
      .toBeGreaterThan(now + 10);
  }

  // Nothing key-like on the server: not the link's secret, not a call key any browser set, in the database or log.
  const keys = new Set<string>([linkSecretHex]);
  for (const page of [pa, pb, pg]) {
    for (const k of await page.evaluate(() => (window as unknown as { __keys: string[] }).__keys)) keys.add(k);
  }
  expect(keys.size).toBeGreaterThan(2);
  const db = srv.server.ctx.db;
  let everything = '';
  for (const t of await db.introspection.getTables()) {
    const rows = await (db as any).selectFrom(t.name).selectAll().execute();
    everything += JSON.stringify(rows, (_k, v) => (Buffer.isBuffer(v) ? v.toString('hex') : v));
  }
  const logged = logLines.join('\n');
  expect(logged.length).toBeGreaterThan(0);
  for (const hex of keys) {
    const b = Buffer.from(hex, 'hex');
    for (const spelling of [hex, b.toString('base64url'), b.toString('base64').replace(/=+$/, '')]) {
      expect(everything).not.toContain(spelling);
      expect(logged).not.toContain(spelling);
    }
  }
});
