// Guest links to calls in real Chromium with fake camera and microphone, against the real server (serving the built
// client) and the embedded media server (docs/behaviour.md §10.40): a member invites from the call, a guest in a
// fresh browser context (no account) knocks, waits in the lobby, is let in, sees and is seen, hears and is heard, is
// removed and is told so; the link is listed and revoked in «Информация»; a named room of /calls invites too, and its
// guest is told «Звонок завершён» once its last member left (the media server wired to the app as `npm start` does);
// axe on the guest page, the lobby, the call's «Участники», «Ссылки на звонки» and the named room's door in both
// themes. Prints the time from «Впустить» to the guest's first decoded video frame (bench/README.md).
import type { BrowserContext, Page } from '@playwright/test';
import { GUEST } from '../src/contract/guest-rules';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect as baseExpect, type E2EUser, mediaTest } from './fixtures';
import { expectApart, expectPlaced } from './layout';
import { signInContext } from './users';

const expect = baseExpect.configure({ timeout: 15_000 });

const test = mediaTest.extend<{ callContext: (u: E2EUser | null) => Promise<BrowserContext> }>({
  callContext: async ({ srv, newContext }, use) => {
    await use(async (u) => {
      const context = await newContext({ baseURL: srv.url, permissions: ['camera', 'microphone'] });
      if (u) await signInContext(context, u);
      return context;
    });
  },
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

/** Width of the remote participants' decoded camera video under `scope` (0 while none has arrived). */
const remoteVideoWidth = (page: Page, scope: string) =>
  page.evaluate((sel) => {
    const videos = [...document.querySelectorAll<HTMLVideoElement>(`${sel} [data-lk-local-participant="false"] video`)];
    return Math.max(0, ...videos.map((v) => v.videoWidth));
  }, scope);

/** Bytes of remote audio this page has received (the fake microphone's tone), from WebRTC's own statistics. */
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

/** Keeps every peer connection the page makes, to read its statistics. */
const keepPeerConnections = () => {
  const Original = window.RTCPeerConnection;
  const all: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = all;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      all.push(this);
    }
  } as typeof RTCPeerConnection;
};

/**
 * Notes, on this page's clock as epoch milliseconds (performance.timeOrigin + the frame's time), when the first video
 * frame under `selector` is presented: requestVideoFrameCallback fires for a frame decoded and shown.
 */
const watchFirstFrame = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const w = window as unknown as { __firstFrameAt?: number };
    delete w.__firstFrameAt;
    const seen = new WeakSet<HTMLVideoElement>();
    const watch = (v: HTMLVideoElement) => {
      if (seen.has(v)) return;
      seen.add(v);
      const onFrame = (now: number) => {
        if (w.__firstFrameAt !== undefined) return;
        if (v.matches(sel)) w.__firstFrameAt = performance.timeOrigin + now;
        else v.requestVideoFrameCallback(onFrame);
      };
      v.requestVideoFrameCallback(onFrame);
    };
    const scan = () => {
      for (const v of document.querySelectorAll('video')) watch(v);
    };
    scan();
    const observer = new MutationObserver(() => {
      if (w.__firstFrameAt !== undefined) observer.disconnect();
      else scan();
    });
    observer.observe(document.body, { childList: true, subtree: true });
  }, selector);

/** Notes when «Впустить» is pressed (capture phase, before the app hears it), as epoch milliseconds. */
const watchAdmit = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __admitAt?: number };
    document.addEventListener(
      'click',
      (e) => {
        const button = (e.target as Element | null)?.closest('button');
        if (button?.textContent?.trim() === 'Впустить' && w.__admitAt === undefined)
          w.__admitAt = performance.timeOrigin + performance.now();
      },
      { capture: true },
    );
  });

const readMark = (page: Page, name: '__firstFrameAt' | '__admitAt') =>
  page.evaluate((key) => (window as unknown as Record<string, number | undefined>)[key] ?? null, name);

// The media server tells the app who is in its rooms, as `npm start` wires it: a guest's admission ends with the call.
test.beforeEach(({ srv, mediaServer }) => srv.server.app.mediaRooms.attach(mediaServer));
test.afterEach(({ srv }) => srv.server.app.mediaRooms.attach(null));

test('a member invites by link; a guest knocks, is let in, sees and hears both ways, is removed and cannot come back', async ({
  friends: { a, b, conversationId },
  callContext,
}) => {
  // Three browsers with camera and microphone on a shared 2-core machine.
  test.setTimeout(300_000);
  const ctxA = await callContext(a);
  await ctxA.addInitScript(keepPeerConnections);
  const pa = await openPage(ctxA, '/', 'anna');
  const pb = await openPage(await callContext(b), '/', 'boris');
  await pa.locator(`[data-conversation-id="${conversationId}"]`).first().click();
  await pa.getByRole('button', { name: 'Позвонить с видео', exact: true }).click();
  await pb.getByRole('button', { name: 'Ответить с видео' }).click();
  await expect(pa.getByRole('heading', { name: 'Звонок', exact: true })).toBeVisible({ timeout: 20_000 });

  await pa.getByRole('button', { name: 'Пригласить по ссылке' }).click();
  const link = await pa.getByTestId('guest-link').inputValue();
  expect(link).toMatch(/\/g\/[\w-]{24}$/);

  // A fresh browser: no account, no app.
  const ctxG = await callContext(null);
  await ctxG.addInitScript(keepPeerConnections);
  const pg = await openPage(ctxG, new URL(link).pathname, 'guest', false);
  await expect(pg.getByRole('heading', { name: `${a.displayName} приглашает вас в звонок` })).toBeVisible();
  await expect(pg.locator('.lk-prejoin video')).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousA11yViolations(pg, 'guest page');
  await pg.getByPlaceholder('Ваше имя').fill('Бабушка');
  await pg.getByRole('button', { name: 'Попросить войти' }).click();
  await expect(pg.getByRole('status').filter({ hasText: 'Ждём, пока вас впустят' })).toBeVisible();
  await expectNoSeriousA11yViolations(pg, 'lobby');

  // Both members are asked; one lets the guest in.
  await expect(pb.getByText('Гость Бабушка хочет войти')).toBeVisible();
  await pa.getByText('Гость Бабушка хочет войти').waitFor();
  await watchAdmit(pa);
  await watchFirstFrame(pg, '.guest-call [data-lk-local-participant="false"] video');
  await watchFirstFrame(pb, '.call-overlay [data-guest="true"] video');
  await pa.getByRole('button', { name: 'Впустить' }).click();
  await expect(pb.getByText('Гость Бабушка хочет войти')).toHaveCount(0);

  // Seen and heard both ways; marked «гость» for the members.
  await expect(pg.locator('.guest-call'))
    .toBeVisible({ timeout: 30_000 })
    .catch(async (err) => {
      console.log(`[guest page] ${await pg.locator('body').innerText()}`);
      throw err;
    });
  await expect.poll(() => remoteVideoWidth(pg, '.guest-call'), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect
    .poll(() => pa.locator('.call-overlay [data-guest="true"] video').evaluate((v: HTMLVideoElement) => v.videoWidth), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  await expect(pa.locator('.call-overlay [data-guest="true"]').first()).toContainText('гость');
  // The figure: «Впустить» on Анна's page to the first frame decoded on the guest's page (and on Борис's, the
  // guest's own camera). Both pages run on this machine's clock, so epoch times compare.
  await expect.poll(() => readMark(pg, '__firstFrameAt'), { timeout: 30_000 }).not.toBeNull();
  const admitAt = await readMark(pa, '__admitAt');
  const guestFrame = await readMark(pg, '__firstFrameAt');
  const memberFrame = await readMark(pb, '__firstFrameAt');
  expect(admitAt).not.toBeNull();
  console.log(`guest: first frame ${Math.round((guestFrame ?? 0) - (admitAt ?? 0))} ms after «Впустить»`);
  if (memberFrame !== null)
    console.log(`member: the guest's first frame ${Math.round(memberFrame - (admitAt ?? 0))} ms after «Впустить»`);

  // The guest's tile in the three-person grid, on a 1280×720 and a 1024×768 screen, in both themes: its name,
  // «гость», «Удалить из звонка» and the pin button lie whole inside it, nothing over them. (A phone's grid pages two
  // tiles at a time and goes back to its first page as tiles re-render, so the guest's tile is not reliably there.)
  const guestTile = pa.locator('.call-overlay [data-guest="true"]').first();
  for (const colorScheme of ['dark', 'light'] as const) {
    await pa.emulateMedia({ colorScheme });
    for (const [width, height] of [
      [1280, 720],
      [1024, 768],
    ] as const) {
      await pa.setViewportSize({ width, height });
      const at = `at ${width}×${height}, ${colorScheme}`;
      await expectPlaced(
        guestTile.getByRole('button', { name: 'Удалить из звонка: Бабушка' }),
        guestTile,
        `«Удалить» ${at}`,
      );
      await expectPlaced(guestTile.getByRole('button', { name: 'Закрепить: Бабушка' }), guestTile, `the pin ${at}`);
      await expectPlaced(guestTile.locator('.lk-participant-metadata-item'), guestTile, `name and «гость» ${at}`);
      await expectPlaced(guestTile.locator('.call-guest-mark'), guestTile, `«гость» ${at}`);
      await expectApart(
        guestTile.getByRole('button', { name: 'Удалить из звонка: Бабушка' }),
        guestTile.locator('.lk-participant-metadata-item, .lk-focus-toggle-button'),
        `«Удалить» clear of the name and the pin ${at}`,
      );
    }
  }
  await pa.setViewportSize({ width: 1280, height: 720 });
  // «Участники» lists everyone, the guest marked «гость».
  await pa.getByRole('button', { name: /^Участники: / }).click();
  const people = pa.getByRole('complementary', { name: 'Участники звонка' });
  await expect(people.locator('[data-guest="true"]')).toContainText('Бабушка');
  await expect(people.locator('[data-guest="true"]')).toContainText('гость');
  await expect(people).toContainText(`${a.displayName} (вы)`);
  await expectNoSeriousA11yViolations(pa, 'call with «Участники»');
  await people.getByRole('button', { name: 'Закрыть список участников' }).click();
  await expect
    .poll(() => audioBytesIn(pg), { timeout: 30_000, message: 'the guest hears the members' })
    .toBeGreaterThan(1000);
  await expect
    .poll(() => audioBytesIn(pa), { timeout: 30_000, message: 'the members hear the guest' })
    .toBeGreaterThan(1000);

  // Removed: the guest is told so and the page does not go back into the call.
  await pa.getByRole('button', { name: 'Удалить из звонка: Бабушка' }).click();
  await expect(pg.getByTestId('guest-outcome')).toHaveText('Вас удалили из звонка');
  await expect(pa.locator('.call-overlay [data-guest="true"]')).toHaveCount(0);
  await expect(pg.locator('.guest-call')).toHaveCount(0);

  // «Ссылки на звонки» in «Информация»: the link made from the call, with who made it and until when; revoked there.
  await pa.getByRole('button', { name: 'Завершить звонок' }).click();
  await expect(pa.locator('.call-overlay')).toHaveCount(0);
  await pa.locator('.conv-title-button').click();
  const info = pa.getByTestId('conversation-info');
  const listed = info.getByTestId('call-link');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText(new URL(link).pathname);
  await expect(listed).toContainText('Вы · до ');
  await expectNoSeriousA11yViolations(pa, '«Ссылки на звонки» in «Информация»');
  await listed.getByRole('button', { name: /^Отозвать/ }).click();
  await expect(listed).toHaveCount(0);
  await expect(info.getByText('Действующих ссылок нет')).toBeVisible();
  const gone = await (await callContext(null)).newPage();
  await gone.goto(new URL(link).pathname);
  await expect(gone.getByTestId('guest-outcome')).toHaveText('Ссылка больше не действует');

  // A named room of /calls: its call has the door too, and the maker's own links.
  await pb.goto('/calls');
  await pb.getByRole('textbox', { name: 'Комната' }).fill('мастерская');
  await pb.getByRole('button', { name: 'Войти', exact: true }).click();
  await pb.getByRole('button', { name: 'Пригласить по ссылке' }).click();
  await expect(pb.getByTestId('guest-link')).toHaveValue(/\/g\/[\w-]{24}$/);
  await pb.getByText('Мои ссылки в эту комнату').click();
  await expect(pb.getByTestId('call-link')).toHaveCount(1);
  await expectNoSeriousA11yViolations(pb, 'named room with the guests’ door');

  // Its guest is let in; the last member leaves: after the grace (on the server's clock) the call is over for the
  // guest too, who may ask to come in again.
  const named = await pb.getByTestId('guest-link').inputValue();
  const pg2 = await openPage(await callContext(null), new URL(named).pathname, 'guest 2', false);
  await expect(pg2.locator('.lk-prejoin video')).toBeVisible({ timeout: 30_000 });
  await pg2.getByPlaceholder('Ваше имя').fill('Сантехник');
  await pg2.getByRole('button', { name: 'Попросить войти' }).click();
  await pb.getByText('Гость Сантехник хочет войти').waitFor();
  await pb.getByRole('button', { name: 'Впустить' }).click();
  await expect(pg2.locator('.guest-call')).toBeVisible({ timeout: 30_000 });
  await pb.getByRole('button', { name: 'Выйти', exact: true }).last().click();
  await expect(pb.getByRole('form', { name: 'Подключиться к комнате' })).toBeVisible();
  await expect(pg2.getByTestId('guest-outcome')).toHaveText('Звонок завершён', {
    timeout: GUEST.callEndGraceMs + 20_000,
  });
  await expect(pg2.getByRole('button', { name: 'Попросить войти снова' })).toBeVisible();
});
