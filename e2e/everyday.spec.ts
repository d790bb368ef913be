// The everyday surfaces in real Chromium against the real server, at 1280 and 390 px: the chat list's tiles
// (preview, time, «Черновик»), addresses that survive reload and Back, unread counts however many, search by name,
// a new group on top, the long press on a phone, and «Выйти» that asks first.
import type { BrowserContext, Page } from '@playwright/test';
import { io } from 'socket.io-client';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { apiCall, type E2EUser, makeFriends, markRead, sendText, signInContext } from './users';

const tile = (page: Page, conversationId: string) => page.locator(`[data-conversation-id="${conversationId}"]`);
const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');

/** Sends `n` texts through the API, in order. */
async function sendMany(base: string, u: E2EUser, conversationId: string, prefix: string, n: number) {
  for (let i = 1; i <= n; i++) await sendText(base, u, conversationId, `${prefix} ${i}`);
}

/** A touch held at (x, y) until `held` holds (CDP touch events, as a finger sends them). */
async function holdTouch(context: BrowserContext, page: Page, x: number, y: number, held: () => Promise<void>) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  await held();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('a tile shows the latest message, its time and «Черновик»; reload keeps the open chat and its draft', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  await sendText(srv.url, a, conversationId, 'Встречаемся у метро в семь');
  const { page } = await openSignedIn(b, { contextOptions: { viewport: { width: 1280, height: 800 } } });
  const t = tile(page, conversationId);
  await expect(t.getByTestId('chat-tile-preview')).toHaveText('Встречаемся у метро в семь');
  await expect(t.getByTestId('chat-tile-time')).toHaveText(/^\d\d:\d\d$/);
  await expect(t.getByTestId('chat-tile-subtitle')).toHaveText('1 непрочитанных');

  await t.click();
  await expect(page).toHaveURL(`${srv.url}/c/${conversationId}`);
  await input(page).fill('Опоздаю на десять минут');
  // Reload: the same chat, the draft back in the field (written to this browser's storage first).
  await expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(localStorage).some(
          (k) => k.startsWith('beseda.drafts.') && (localStorage.getItem(k) ?? '').includes('Опоздаю'),
        ),
      ),
    )
    .toBe(true);
  await page.reload();
  await expect(page).toHaveURL(`${srv.url}/c/${conversationId}`);
  await expect(page.locator('.conv-title')).toHaveText('Анна');
  await expect(input(page)).toHaveValue('Опоздаю на десять минут');

  // Back: the list, the chat closed, its tile says what is waiting to be sent.
  await page.goBack();
  await expect(page).toHaveURL(`${srv.url}/`);
  await expect(page.getByText('Выберите чат')).toBeVisible();
  await expect(t.getByTestId('chat-tile-preview')).toHaveText('Черновик: Опоздаю на десять минут');
  await expect(t.locator('.chat-tile-draft')).toHaveCSS('color', 'rgb(180, 35, 35)');
  // Forward: the chat again.
  await page.goForward();
  await expect(page.locator('.conv-title')).toHaveText('Анна');
  await input(page).press('Enter');
  await page.goBack();
  await expect(t.getByTestId('chat-tile-preview')).toHaveText('Опоздаю на десять минут');
  await expect(t.locator('.chat-tile-read')).toHaveAttribute('title', 'Отправлено');
  await expectNoSeriousA11yViolations(page, 'list with previews');
});

test('390 px: the conversation takes the whole screen; Back goes to the list, a second Back leaves the app', async ({
  srv,
  friends: { a, b, conversationId },
  newContext,
}) => {
  await sendText(srv.url, a, conversationId, 'Ты где?');
  const context = await newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await signInContext(context, b);
  const page = await context.newPage();
  await page.goto('about:blank');
  await page.goto(`${srv.url}/`);
  const bar = page.locator('.shell-bar');
  await expect(bar).toBeVisible();
  // One compact row: the sections, a quiet connection dot (its figure only for screen readers).
  expect((await bar.boundingBox())?.height).toBeLessThanOrEqual(56);
  await expect(page.locator('.ping-text')).toHaveCSS('position', 'absolute');

  await tile(page, conversationId).click();
  await expect(page).toHaveURL(`${srv.url}/c/${conversationId}`);
  await expect(page.getByTestId('message').getByText('Ты где?')).toBeInViewport();
  await expect(bar).toBeHidden();
  await expect(page.getByRole('button', { name: 'Выйти' })).toBeHidden();

  // A long press on the message opens its menu (touch screens send no right click on iOS).
  const box = await page.getByTestId('message').first().boundingBox();
  if (!box) throw new Error('no message on screen');
  // The menu opens while the finger is still down, and stays when it lifts.
  const quote = page.getByRole('menuitem', { name: 'Цитировать' });
  await holdTouch(context, page, box.x + box.width / 2, box.y + box.height / 2, () => expect(quote).toBeVisible());
  await expect(quote).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goBack();
  await expect(page).toHaveURL(`${srv.url}/`);
  await expect(page.getByTestId('chats-shell')).toHaveAttribute('data-panel', 'list');
  await expect(bar).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL('about:blank');

  // A conversation's address opened directly: Back shows the list first.
  await page.goto(`${srv.url}/c/${conversationId}`);
  await expect(page.locator('.conv-title')).toHaveText('Анна');
  await page.goBack();
  await expect(page).toHaveURL(`${srv.url}/`);
  await expect(page.getByTestId('chats-shell')).toHaveAttribute('data-panel', 'list');

  // «Выйти» asks first.
  await page.getByRole('button', { name: 'Выйти' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Выйти из аккаунта?' });
  await expect(ask).toBeVisible();
  await expectNoSeriousA11yViolations(page, '«Выйти из аккаунта?»');
  await ask.getByRole('button', { name: 'Отмена' }).click();
  await expect(page).toHaveURL(`${srv.url}/`);
});

test('150 unread messages open at the first unread one; the title counts them', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  await sendMany(srv.url, a, conversationId, 'прочитанное', 5);
  await markRead(srv.url, b, conversationId);
  await sendMany(srv.url, a, conversationId, 'новое', 150);
  const { page } = await openSignedIn(b, { contextOptions: { viewport: { width: 1280, height: 800 } } });
  await expect(page).toHaveTitle('(150) Беседа');
  await expect(tile(page, conversationId).getByTestId('chat-tile-subtitle')).toHaveText('150 непрочитанных');
  await tile(page, conversationId).click();
  const divider = page.getByText('Непрочитанные сообщения');
  await expect(divider).toBeInViewport();
  await expect(page.locator('.msg-text').filter({ hasText: /^новое 1$/ })).toBeInViewport();
  await expect(page.getByTestId('message').filter({ hasText: 'прочитанное 5' })).toHaveCount(1);
  // Opening reads them: the title loses its count.
  await expect(page).toHaveTitle('Беседа');
});

test('a group made last is on top; searching its title finds it, and a friend by name', async ({
  srv,
  createUser: make,
  openSignedIn,
}) => {
  const [a, b, c] = await Promise.all([make('Анна'), make('Борис'), make('Вера Сергеевна')]);
  await makeFriends(srv.url, a, b);
  await makeFriends(srv.url, a, c);
  const direct = await apiCall<{ conversation: { id: string } }>(
    srv.url,
    'POST',
    '/api/conversations/with',
    { userId: b.user.id },
    a.accessToken,
  );
  await sendText(srv.url, b, direct.conversation.id, 'привет');
  const { page } = await openSignedIn(a, { contextOptions: { viewport: { width: 1280, height: 800 } } });
  await expect(tile(page, direct.conversation.id)).toBeVisible();

  await page.getByRole('button', { name: 'Новая беседа' }).click();
  const dialog = page.getByRole('dialog', { name: 'Создать групповой чат' });
  await dialog.getByLabel('Название').fill('Поход в горы');
  await tick(dialog.getByRole('checkbox', { name: /Борис/ }));
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(page).toHaveURL(/\/c\/[^/]+$/);
  await expect(page.getByTestId('chat-tile').first()).toContainText('Поход в горы');

  await page.goBack();
  const search = page.getByRole('searchbox');
  await search.fill('поход');
  const found = page.getByTestId('name-results');
  await expect(found.getByRole('button', { name: 'Поход в горы' })).toBeVisible();
  await search.fill('сергеевна');
  await expect(found.getByRole('button', { name: /Вера Сергеевна/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'search by name');
  await found.getByRole('button', { name: /Вера Сергеевна/ }).click();
  await expect(page.locator('.conv-title')).toHaveText('Вера Сергеевна');
  await expect(page).toHaveURL(/\/c\/[^/]+$/);
});

test('a call arriving the moment a cold, throttled page comes online shows its three buttons from the first frame', async ({
  srv,
  friends: { a, b, conversationId },
  newContext,
}) => {
  const context = await newContext({ viewport: { width: 390, height: 844 } });
  await signInContext(context, b);
  const page = await context.newPage();
  // The first time the dialog is in the page, what buttons it had then.
  await page.addInitScript(() => {
    const w = window as unknown as { firstDialog: string[] | null };
    w.firstDialog = null;
    new MutationObserver(() => {
      const dialog = document.querySelector('.incoming-call[role="alertdialog"], .incoming-call');
      if (w.firstDialog || !dialog) return;
      w.firstDialog = [...dialog.querySelectorAll('button')].map((el) => el.textContent ?? '');
    }).observe(document, { childList: true, subtree: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: 1.6e6 / 8,
    uploadThroughput: 750e3 / 8,
  });
  const loading = page.goto(`${srv.url}/`);

  // Анна calls the moment Борис's page is online (before that the server answers that nobody can be rung).
  const caller = io(srv.url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { token: a.accessToken },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      caller.once('connect', () => resolve());
      caller.once('connect_error', reject);
    });
    await expect
      .poll(
        async () => {
          const ack = (await caller.timeout(5_000).emitWithAck('call:invite', { conversationId, video: false })) as {
            ok: boolean;
          };
          return ack.ok;
        },
        { timeout: 60_000, intervals: [50] },
      )
      .toBe(true);
    await loading;
    await expect(page.getByRole('alertdialog')).toBeVisible();
    const first = await page.evaluate(() => (window as unknown as { firstDialog: string[] | null }).firstDialog);
    expect(first).toEqual(['Отклонить', 'Ответить', 'Ответить с видео']);
    await page.getByRole('button', { name: 'Отклонить' }).click();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  } finally {
    caller.close();
  }
});

test('the calls page lists a finished call with a call-back that opens the conversation and calls', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  const socket = (token: string) =>
    new Promise<ReturnType<typeof io>>((resolve, reject) => {
      const s = io(srv.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
      s.once('connect', () => resolve(s));
      s.once('connect_error', reject);
    });
  const [anna, boris] = await Promise.all([socket(a.accessToken), socket(b.accessToken)]);
  try {
    // Борис calls Анна, who declines: one call entry.
    const rang = new Promise((resolve) => anna.once('call:incoming', resolve));
    expect(await boris.timeout(5_000).emitWithAck('call:invite', { conversationId, video: true })).toEqual({
      ok: true,
    });
    await rang;
    expect(await anna.timeout(5_000).emitWithAck('call:decline', { conversationId })).toEqual({ ok: true });
    anna.close();

    const { page } = await openSignedIn(a, { path: '/calls' });
    await expect(page.getByTestId('video-server')).toHaveText(/^ws:\/\/.+:\d+$/);
    const row = page.getByTestId('call-history-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Борис');
    await expect(row).toContainText('Звонок отклонён');
    await expectNoSeriousA11yViolations(page, 'calls page with history');
    // Calling back: the conversation opens at its address and Борис's tab rings.
    const ringing = new Promise<{ video: boolean }>((resolve) => boris.once('call:incoming', resolve));
    await row.getByRole('button', { name: /Видеозвонок/ }).click();
    await expect(page).toHaveURL(`${srv.url}/c/${conversationId}`);
    expect((await ringing).video).toBe(true);
  } finally {
    anna.close();
    boris.close();
  }
});
