// The message history's scroll rules in real Chromium against the real server (docs/behaviour.md §9): it opens
// at the newest message; an older page is prepended without moving what is on screen, with 'Загружаем историю…'
// shown while it loads; new messages are followed within 80 px of the bottom and not from further up; the '↓'
// button shows from 40 px; an own send goes to the bottom from anywhere. Positions are read from the scroll
// area itself (role="log"), and scrolls are set on it to the pixel, as the thresholds need.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { markRead, sendText } from './users';

const log = (page: Page) => page.getByRole('log', { name: 'Сообщения' });
const messageWith = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });
const jumpButton = (page: Page) => page.getByRole('button', { name: 'К последним сообщениям' });
/** Pixels of history below the view. */
const below = (scroller: Locator) => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
/** Scrolls so that `px` of history stay below the view, and lets the scroll event and a frame pass. */
/** A few frames drawn: rows coming into view are measured (ResizeObserver) and any correction has been made. */
const frames = (page: Page, n = 4) =>
  page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) await new Promise((r) => requestAnimationFrame(r));
  }, n);

async function leaveBelow(scroller: Locator, px: number) {
  await scroller.evaluate(async (el, px) => {
    el.scrollTop = el.scrollHeight - el.clientHeight - px;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }, px);
}

test.describe('chats page: scrolling the history', () => {
  test("opens at the newest message; an older page comes in above without moving the view, 'Загружаем историю…' meanwhile", async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    // Three pages of 50: the first two are what the reader scrolls through.
    for (let i = 1; i <= 120; i++)
      await sendText(
        srv.url,
        i % 2 ? a : b,
        conversationId,
        `Строка ${i}${i % 7 === 0 ? ' — длинная, чтобы пузыри были разной высоты и переносились на несколько строк при узком окне' : ''}`,
      );
    await markRead(srv.url, b, conversationId); // read: it opens at the newest message, not at the unread divider
    const { page } = await openSignedIn(b);
    await page.locator(`[data-conversation-id="${conversationId}"]`).click();
    const scroller = log(page);
    await expect(messageWith(page, 'Строка 120')).toBeInViewport();
    await expect.poll(() => below(scroller)).toBeLessThanOrEqual(1);
    await expect(jumpButton(page)).toHaveCount(0);

    // Hold the older page so the note can be seen; then scroll to the very top.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/conversations/*/messages?*before=*', async (route) => {
      await held;
      await route.continue();
    });
    await scroller.evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect(page.getByRole('status').filter({ hasText: 'Загружаем историю…' })).toBeVisible();
    await expect(messageWith(page, 'Строка 71')).toBeInViewport();
    const top = () => messageWith(page, 'Строка 71').evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const before = await top();

    release();
    await expect(messageWith(page, 'Строка 70')).toHaveCount(1); // the older page is in
    await expect(page.getByText('Загружаем историю…')).toHaveCount(0);
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(1000);
    // The same row at the same place on the screen (within a pixel of rounding).
    expect(Math.abs((await top()) - before)).toBeLessThanOrEqual(1);
    await page.unroute('**/api/conversations/*/messages?*before=*');
  });

  test("follows new messages within 80 px of the bottom, not from further up; '↓' from 40 px; an own send goes to the bottom", async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    for (let i = 1; i <= 60; i++) await sendText(srv.url, i % 2 ? a : b, conversationId, `Сообщение ${i}`);
    await markRead(srv.url, b, conversationId); // read: it opens at the newest message, not at the unread divider
    const { page } = await openSignedIn(b);
    await page.locator(`[data-conversation-id="${conversationId}"]`).click();
    const scroller = log(page);
    await expect(messageWith(page, 'Сообщение 60')).toBeInViewport();
    await expect.poll(() => below(scroller)).toBeLessThanOrEqual(1);

    // 30 px up: no button; 60 px up: the button, and a new message is still followed. The view stays where the
    // reader put it meanwhile (rows measured as they come into view must not pull it back to the bottom).
    await leaveBelow(scroller, 30);
    await expect(jumpButton(page)).toHaveCount(0);
    await frames(page);
    expect(Math.round(await below(scroller))).toBe(30);
    await leaveBelow(scroller, 60);
    await expect(jumpButton(page)).toBeVisible();
    await frames(page);
    expect(Math.round(await below(scroller))).toBe(60);
    await sendText(srv.url, a, conversationId, 'Новое рядом с концом');
    await expect(messageWith(page, 'Новое рядом с концом')).toBeInViewport();
    await expect.poll(() => below(scroller)).toBeLessThanOrEqual(1);
    await expect(jumpButton(page)).toHaveCount(0);

    // 300 px up: a new message is not followed; the button brings it.
    await leaveBelow(scroller, 300);
    await sendText(srv.url, a, conversationId, 'Новое издалека');
    await expect(messageWith(page, 'Новое издалека')).toHaveCount(1);
    await frames(page);
    expect(await below(scroller)).toBeGreaterThan(300);
    await expect(messageWith(page, 'Новое издалека')).not.toBeInViewport();
    await jumpButton(page).click();
    await expect(messageWith(page, 'Новое издалека')).toBeInViewport();
    await expect.poll(() => below(scroller)).toBeLessThanOrEqual(1);

    // Far up, the reader sends: the view goes to the bottom and shows it.
    await leaveBelow(scroller, 2000);
    const input = page.getByPlaceholder('Напишите сообщение...');
    await input.fill('Моё сообщение');
    await input.press('Enter');
    await expect(messageWith(page, 'Моё сообщение')).toBeInViewport();
    await expect.poll(() => below(scroller)).toBeLessThanOrEqual(1);
  });
});
