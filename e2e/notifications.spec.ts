// Notifications (src/machines/notifications/notifications, src/sw/service-worker.ts) in Chromium: the settings switches (and
// axe on them), a message to a hidden tab shown as a system notification through the service worker — one per
// conversation, counted — read back with the worker's getNotifications(), and a click on it opening the
// conversation; a call started in a group too large to ring told the same way, its click opening the group at its
// call bar.
//
// Headless Chromium keeps every tab 'visible' (another tab in front, a minimized window: still visible), so the
// test hides the page by answering document.visibilityState 'hidden' and firing visibilitychange, as the browser
// does; everything after that (socket, service worker, notifications) is the real thing.
import type { BrowserContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { chromiumArgs, fullChromiumPath } from '../playwright.config';
import { test as base, expect } from './fixtures';
import { io } from 'socket.io-client';
import { GROUP_CALL_RING_MAX } from '../server/calls/group-calls';
import { apiCall, createGroup, createUser, makeFriends, sendText, signInContext } from './users';

/** Анна's settings page, notifications allowed for the app, in a context that can hide the page; Борис writes to her. */
const test = base.extend<{ settingsPage: Page }>({
  settingsPage: async ({ srv, context, friends: { a } }, use) => {
    await context.grantPermissions(['notifications'], { origin: srv.url });
    await signInContext(context, a);
    await context.addInitScript(() => {
      let hidden = false;
      Object.defineProperty(Document.prototype, 'visibilityState', {
        configurable: true,
        get: () => (hidden ? 'hidden' : 'visible'),
      });
      Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
      (window as unknown as { setPageHidden: (h: boolean) => void }).setPageHidden = (h: boolean) => {
        hidden = h;
        document.dispatchEvent(new Event('visibilitychange'));
      };
    });
    const page = await context.newPage();
    await page.goto(`${srv.url}/settings`);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await use(page);
  },
});

// The headless shell has no notification platform: these run in the full Chromium (a worker of their own).
test.use({ launchOptions: { executablePath: fullChromiumPath, args: chromiumArgs } });

const shown = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
    })),
  );
/** Records every notification the page asks for from now on (what `shown` cannot tell: one replaced by the next). */
const recordAsked = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { asked: string[] };
    w.asked = [];
    const show = ServiceWorkerRegistration.prototype.showNotification;
    ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
      w.asked.push(options?.body ?? title);
      return show.call(this, title, options);
    };
  });
const asked = (page: Page) => page.evaluate(() => (window as unknown as { asked: string[] }).asked);
/**
 * Clicks the first notification shown. No protocol clicks a system notification: the service worker gets the event
 * its click would bring.
 */
async function clickNotification(context: BrowserContext): Promise<void> {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await worker.evaluate(async () => {
    type Scope = { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
    type ClickEvent = new (type: string, init: { notification: Notification }) => Event;
    const sw = self as unknown as Scope;
    const [n] = await sw.registration.getNotifications();
    sw.dispatchEvent(
      new (globalThis as unknown as { NotificationEvent: ClickEvent }).NotificationEvent('notificationclick', {
        notification: n,
      }),
    );
  });
}
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate((h) => (window as unknown as { setPageHidden: (h: boolean) => void }).setPageHidden(h), hidden);

test('the settings switches ask the browser only when flipped; axe finds no serious violation', async ({
  settingsPage: page,
}) => {
  const on = page.getByRole('switch', { name: 'Уведомления' });
  const text = page.getByRole('switch', { name: 'Показывать текст сообщений' });
  await expect(on).not.toBeChecked();
  await expect(text).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'settings with the notification switches');
  // The switch turns on once the browser and the server have answered, not at the click: click and wait (check()
  // looks at once).
  await on.click();
  await expect(on).toBeChecked();
  await expect(text).toBeEnabled();
  await expect(text).toBeChecked();
  // Remembered for this user on this device.
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Уведомления' })).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'settings with notifications on');
});

test('a message to a hidden tab shows a notification per conversation, counted; clicking it opens the conversation', async ({
  srv,
  context,
  friends: { b, conversationId },
  settingsPage: page,
}) => {
  const on = page.getByRole('switch', { name: 'Уведомления' });
  if (!(await on.isChecked())) await on.click();
  await expect(on).toBeChecked();

  // Visible: no system notification (the tab shows it itself). The page's title counting it says it has arrived.
  await recordAsked(page);
  await sendText(srv.url, b, conversationId, 'Пока ты смотришь');
  await expect(page).toHaveTitle('(1) Беседа');
  expect(await shown(page)).toEqual([]);

  await setHidden(page, true);
  await sendText(srv.url, b, conversationId, 'Привет! Ты тут?');
  await expect
    .poll(() => shown(page))
    .toEqual([{ title: 'Борис', body: 'Привет! Ты тут?', tag: `conv:${conversationId}` }]);
  expect(await asked(page)).toEqual(['Привет! Ты тут?']);
  await sendText(srv.url, b, conversationId, 'Второе');
  await sendText(srv.url, b, conversationId, 'Третье');
  await expect
    .poll(() => shown(page))
    .toEqual([{ title: 'Борис', body: '3 новых сообщения', tag: `conv:${conversationId}` }]);

  // The user goes to another page of the app, then clicks the notification: the chats page opens on it.
  await setHidden(page, false);
  await page.getByRole('link', { name: 'Настройки' }).click();
  await clickNotification(context);
  // The conversation opens at its own address.
  await expect(page).toHaveURL(new RegExp(`^${srv.url}/c/[^/]+$`));
  await expect(page.getByTestId('message').filter({ hasText: 'Третье' })).toBeVisible();
  await expect.poll(() => shown(page)).toEqual([]);
});

test('«Без звука» keeps a muted conversation silent; «Включить звук» brings its notifications back', async ({
  srv,
  friends: { a, b, conversationId },
  settingsPage: page,
}) => {
  const on = page.getByRole('switch', { name: 'Уведомления' });
  if (!(await on.isChecked())) await on.click();
  await expect(on).toBeChecked();
  const mute = (mutedUntil: string | null) =>
    apiCall(srv.url, 'PATCH', `/api/conversations/${conversationId}/settings`, { mutedUntil }, a.accessToken);
  await mute('forever');
  await setHidden(page, true);
  await recordAsked(page);
  await sendText(srv.url, b, conversationId, 'Тихое сообщение');
  // A mention is heard even so.
  await apiCall(
    srv.url,
    'POST',
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content: '@Анна глянь', mentions: [a.user.id] },
    b.accessToken,
  );
  await expect.poll(async () => (await shown(page)).map((n) => n.body)).toEqual(['@Анна глянь']);
  // Messages are handled in order: the muted one before the mention, and it asked for nothing.
  expect(await asked(page)).toEqual(['@Анна глянь']);
  await mute(null);
  await sendText(srv.url, b, conversationId, 'Громкое сообщение');
  await expect.poll(async () => (await shown(page)).map((n) => n.title)).toEqual(['Борис']);
});

test(`a call started in a group over ${GROUP_CALL_RING_MAX} members rings nobody: a hidden tab shows it, a click opens the group's bar`, async ({
  srv,
  context,
  friends: { a, b },
  settingsPage: page,
}) => {
  const on = page.getByRole('switch', { name: 'Уведомления' });
  if (!(await on.isChecked())) await on.click();
  await expect(on).toBeChecked();
  // Борис's group: Анна and enough of his friends to be one over the ringing size.
  const crowd = await Promise.all(
    Array.from({ length: GROUP_CALL_RING_MAX - 1 }, (_, i) => createUser(srv.url, `Участник ${i + 1}`, 'crowd')),
  );
  for (const u of crowd) await makeFriends(srv.url, b, u);
  const group = await createGroup(srv.url, b, [a, ...crowd], 'Школа');
  await setHidden(page, true);
  await recordAsked(page);

  const starter = io(srv.url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { token: b.accessToken },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      starter.once('connect', () => resolve());
      starter.once('connect_error', reject);
    });
    expect(await starter.timeout(5_000).emitWithAck('groupCall:start', { conversationId: group, video: true })).toEqual(
      {
        ok: true,
      },
    );
    await expect
      .poll(() => shown(page))
      .toEqual([{ title: 'Борис — Школа', body: 'Идёт групповой видеозвонок', tag: `call:${group}` }]);
    // Nothing rang: the tab shows no incoming call.
    expect(await asked(page)).toEqual(['Идёт групповой видеозвонок']);
    await expect(page.getByText('Входящий видеозвонок')).toHaveCount(0);

    await setHidden(page, false);
    await clickNotification(context);
    // The group opens at its own address, with the call's bar to join from.
    await expect(page).toHaveURL(new RegExp(`^${srv.url}/c/[^/]+$`));
    await expect(page.getByRole('button', { name: 'Присоединиться' }).first()).toBeVisible();
    await expect(page.getByText(/Идёт звонок · 1 участник/).first()).toBeVisible();
  } finally {
    starter.close();
  }
});
