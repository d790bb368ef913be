// The chats page in real Chromium against the real server: two users in two browser contexts.
// Users, friendships and conversations are made through the REST API (e2e/users.ts); what is tested is what
// people do on the page. Axe checks the page in each state.
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, type E2EUser, markRead, sendText } from './users';

const messages = (page: Page) => page.getByTestId('message');
/** Picked files wait in the send preview: «Отправить» there sends them. */
const sendPreviewed = (page: Page) =>
  page
    .getByRole('dialog', { name: /^Отправить/ })
    .getByRole('button', { name: 'Отправить' })
    .click();
const messageWith = (page: Page, text: string) => messages(page).filter({ hasText: text });
const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');
/** Axe on the whole page as it is now. */
const axe = (page: Page, label: string) => expectNoSeriousA11yViolations(page, label);

async function openConversation(page: Page, conversationId: string) {
  await page.locator(`[data-conversation-id="${conversationId}"]`).click();
  await expect(input(page)).toBeVisible();
}

async function history(base: string, u: E2EUser, conversationId: string) {
  const res = await apiCall<{ messages: { id: string; content: string; clientMessageId: string | null }[] }>(
    base,
    'GET',
    `/api/conversations/${conversationId}/messages?limit=200`,
    undefined,
    u.accessToken,
  );
  return res.messages;
}

test.describe('chats page', () => {
  test('A types and B sees the dots; A sends and B sees it live; B reads and A sees ✓', async ({
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    const A = await openSignedIn(a);
    const B = await openSignedIn(b);

    await expect(A.page.getByRole('heading', { name: 'Чаты' })).toBeVisible();
    await expect(A.page.getByText('Выберите чат')).toBeVisible();
    await openConversation(A.page, conversationId);
    await expect(A.page.getByText('Сообщения появятся здесь')).toBeVisible();
    await openConversation(B.page, conversationId);
    await axe(A.page, 'empty conversation');

    await input(A.page).pressSequentially('Привет', { delay: 30 });
    await expect(B.page.getByTestId('typing')).toContainText('Анна печатает');
    await expect(B.page.getByTestId('typing').locator('i')).toHaveCount(3);
    await input(A.page).press('Enter');
    await expect(input(A.page)).toHaveValue('');
    await expect(messageWith(B.page, 'Привет')).toBeVisible();
    // Typing stops with the send.
    await expect(B.page.getByTestId('typing')).toHaveText('');
    // B has the conversation open and in focus: it reads the message, and A sees the mark.
    const own = messageWith(A.page, 'Привет');
    await expect(own).toHaveAttribute('data-own', 'true');
    await expect(own).toHaveAttribute('data-delivery', 'read');
    await expect(own.getByTestId('read-mark')).toHaveText(/✓/);
    await axe(A.page, 'conversation with a read message');
    await axe(B.page, 'conversation of the receiver');
  });

  test('reply with a quote, jump to the original (also one far back in older pages), delete by keyboard', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    // A long history: the first message is far outside the first page.
    const first = await sendText(srv.url, b, conversationId, 'Самое первое сообщение');
    for (let i = 1; i <= 80; i++) await sendText(srv.url, i % 2 ? a : b, conversationId, `Сообщение номер ${i}`);
    await apiCall(
      srv.url,
      'POST',
      '/api/conversations/send',
      { conversationId, type: 'TEXT', content: 'Помнишь, с чего всё началось?', replyToId: first.id },
      b.accessToken,
    );
    // Read: both open at the newest message, not at the unread divider.
    await Promise.all([markRead(srv.url, a, conversationId), markRead(srv.url, b, conversationId)]);
    const A = await openSignedIn(a);
    const B = await openSignedIn(b);
    await openConversation(A.page, conversationId);
    await openConversation(B.page, conversationId);
    // Virtualized: only part of the loaded page is in the DOM.
    await expect(messageWith(A.page, 'Помнишь, с чего всё началось?')).toBeVisible();
    expect(await messages(A.page).count()).toBeLessThan(50);

    // The quote of a message not loaded yet: older pages load until it is found, then it is highlighted.
    const quote = messageWith(A.page, 'Помнишь, с чего всё началось?').getByRole('button', { name: /Ответ на:/ });
    await expect(quote).toContainText('Самое первое сообщение');
    const original = A.page.locator(`[data-message-id="${first.id}"]`);
    await expect(original).toHaveCount(0);
    await quote.click();
    await expect(original).toBeInViewport();
    await expect(original.locator('.msg-flash')).toHaveCount(1);

    // Far from the bottom: the '↓' button brings the latest messages back.
    await A.page.getByRole('button', { name: 'К последним сообщениям' }).click();
    await expect(messageWith(A.page, 'Помнишь, с чего всё началось?')).toBeInViewport();
    await expect(A.page.getByRole('button', { name: 'К последним сообщениям' })).toHaveCount(0);

    // Quote by the right-click menu and send.
    await messageWith(A.page, 'Сообщение номер 80').click({ button: 'right' });
    await A.page.getByRole('menuitem', { name: 'Цитировать' }).click();
    await expect(A.page.getByTestId('reply-banner')).toContainText('Ответ на: Сообщение номер 80');
    await expect(input(A.page)).toBeFocused();
    await input(A.page).fill('Отвечаю на восьмидесятое');
    await input(A.page).press('Enter');
    await expect(A.page.getByTestId('reply-banner')).toHaveCount(0);
    const reply = messageWith(B.page, 'Отвечаю на восьмидесятое');
    await expect(reply.getByRole('button', { name: /Ответ на:/ })).toContainText('Сообщение номер 80');

    // Someone else's message offers no 'Удалить' (only «Скрыть у себя»).
    await messageWith(A.page, 'Помнишь, с чего всё началось?').click({ button: 'right' });
    await expect(A.page.getByRole('menuitem', { name: 'Цитировать' })).toBeVisible();
    await expect(A.page.getByRole('menuitem', { name: 'Удалить' })).toHaveCount(0);
    await expect(A.page.getByRole('menuitem', { name: 'Скрыть у себя' })).toBeVisible();
    await A.page.keyboard.press('Escape');
    await expect(A.page.getByRole('menu')).toHaveCount(0);

    // Delete an own message with the keyboard only: the menu button, arrows, Enter.
    const mine = messageWith(A.page, 'Отвечаю на восьмидесятое');
    await mine.getByRole('button', { name: 'Действия с сообщением' }).focus();
    await A.page.keyboard.press('Enter');
    await expect(A.page.getByRole('menuitem', { name: 'Цитировать' })).toBeFocused();
    await A.page.keyboard.press('ArrowDown');
    await expect(A.page.getByRole('menuitem', { name: 'Копировать текст' })).toBeFocused();
    // Past «Переслать», «Напомнить», «Закрепить», «Выбрать», «Информация» and «Изменить».
    for (let i = 0; i < 7; i++) await A.page.keyboard.press('ArrowDown');
    await expect(A.page.getByRole('menuitem', { name: 'Удалить' })).toBeFocused();
    await axe(A.page, 'message menu open');
    await A.page.keyboard.press('Enter');
    // It asks first; «Удалить у всех» removes it here at once and for the other side once «Отменить» has passed.
    await A.page
      .getByRole('dialog', { name: 'Удалить сообщение?' })
      .getByRole('button', { name: 'Удалить у всех' })
      .press('Enter');
    await expect(mine).toHaveCount(0);
    await expect(messageWith(B.page, 'Отвечаю на восьмидесятое')).toHaveCount(0, { timeout: 15_000 });
    // Shift+F10 on a message opens the same menu.
    await messageWith(A.page, 'Сообщение номер 79').getByRole('button', { name: 'Действия с сообщением' }).focus();
    await A.page.keyboard.press('Shift+F10');
    await expect(A.page.getByRole('menu')).toBeVisible();
    await A.page.keyboard.press('Escape');
  });

  test('an image upload shows its progress, then the image; a file becomes a "Файл:" link', async ({
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    const A = await openSignedIn(a);
    const B = await openSignedIn(b);
    await openConversation(A.page, conversationId);
    await openConversation(B.page, conversationId);

    // Hold the upload so the temporary message and the progress bar can be seen.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await A.page.route('**/api/upload', async (route) => {
      await held;
      await route.continue();
    });
    const png = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#3b6cf0' } })
      .png()
      .toBuffer();
    await A.page.getByTestId('attach-input').setInputFiles({ name: 'горы.png', mimeType: 'image/png', buffer: png });
    await sendPreviewed(A.page);
    const temp = A.page.locator('[data-message-id^="tmp-"]');
    await expect(temp).toHaveAttribute('data-delivery', 'sending');
    await expect(A.page.getByTestId('upload-progress')).toBeVisible();
    await expect(temp.getByRole('progressbar', { name: /горы\.png/ })).toBeVisible();
    await axe(A.page, 'upload in progress');
    release();
    await expect(A.page.getByTestId('upload-progress')).toHaveCount(0);
    const image = B.page.getByTestId('message').locator('img[alt="горы.png"]');
    await expect(image).toBeVisible();
    // Shown at most 320 px wide, once the bubble has settled (it is laid out again when the picture arrives).
    const width = async () => (await image.boundingBox())?.width ?? 0;
    await expect.poll(width).toBeGreaterThan(300);
    expect(await width()).toBeLessThanOrEqual(320.5);
    await expect(A.page.locator('[data-message-id^="tmp-"]')).toHaveCount(0);
    await A.page.unroute('**/api/upload');

    await A.page
      .getByTestId('attach-input')
      .setInputFiles({ name: 'список.txt', mimeType: 'text/plain', buffer: Buffer.from('палатка, спальник') });
    await sendPreviewed(A.page);
    const link = B.page.getByRole('link', { name: 'Файл: список.txt' });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', /^\/uploads\//);
    await axe(B.page, 'image and file messages');

    // A failed upload stays on the temporary message with 'Повторить' and 'Удалить'; a retry sends it.
    await A.page.route('**/api/upload', (route) => route.abort('connectionreset'));
    await A.page.getByTestId('attach-input').setInputFiles({ name: 'карта.png', mimeType: 'image/png', buffer: png });
    await sendPreviewed(A.page);
    const failed = A.page.locator('[data-message-id^="tmp-"]');
    await expect(failed).toHaveAttribute('data-delivery', 'failed');
    await expect(failed.getByText('Файл не загрузился')).toHaveAttribute('data-error', 'upload failed');
    await A.page.unroute('**/api/upload');
    await failed.getByRole('button', { name: 'Повторить' }).click();
    await expect(B.page.getByTestId('message').locator('img[alt="карта.png"]')).toBeVisible();
    await expect(A.page.locator('[data-message-id^="tmp-"]')).toHaveCount(0);
  });

  test("B's unread count and the notification sound while the conversation is closed", async ({
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    const A = await openSignedIn(a);
    const B = await openSignedIn(b);
    // Count what the sound service plays.
    await B.page.evaluate(() => {
      const w = window as unknown as { played: string[] };
      w.played = [];
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        if (!this.muted) w.played.push(this.src);
        return play.call(this);
      };
    });
    const played = () =>
      B.page.evaluate(
        () => (window as unknown as { played: string[] }).played.filter((s) => s.endsWith('/sounds/notify.wav')).length,
      );
    await B.page.getByRole('heading', { name: 'Чаты' }).click(); // the first gesture unlocks sound
    await openConversation(A.page, conversationId);

    await input(A.page).fill('Первое');
    await input(A.page).press('Enter');
    await input(A.page).fill('Второе');
    await input(A.page).press('Enter');
    const tile = B.page.locator(`[data-conversation-id="${conversationId}"]`);
    await expect(tile.getByTestId('chat-tile-subtitle')).toHaveText('2 непрочитанных');
    await expect.poll(played).toBe(2);
    await axe(B.page, 'list with unread');

    await tile.click();
    await expect(messageWith(B.page, 'Второе')).toBeVisible();
    await expect(tile.getByTestId('chat-tile-subtitle')).not.toContainText('непрочитанных');
    // The open conversation in a visible tab: no sound, no count.
    await input(A.page).fill('Третье');
    await input(A.page).press('Enter');
    await expect(messageWith(B.page, 'Третье')).toBeVisible();
    // A sees it read: B has handled the message (the sound's decision comes with its arrival).
    await expect(messageWith(A.page, 'Третье')).toHaveAttribute('data-delivery', 'read');
    expect(await played()).toBe(2);
    await expect(tile.getByTestId('chat-tile-subtitle')).not.toContainText('непрочитанных');
  });

  test('the outbox: a send while the server is unreachable stays failed, survives a reload and is delivered once after reconnecting', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    const A = await openSignedIn(a);
    const B = await openSignedIn(b);
    await openConversation(A.page, conversationId);
    await openConversation(B.page, conversationId);
    await expect(A.page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 15_000 });

    // The server cannot be reached for sends (the request never arrives).
    await A.context.route('**/api/conversations/send', (route) => route.abort('internetdisconnected'));
    await input(A.page).fill('Сообщение из туннеля');
    await input(A.page).press('Enter');
    const pending = messageWith(A.page, 'Сообщение из туннеля');
    await expect(pending).toHaveAttribute('data-delivery', 'failed');
    await expect(pending.getByRole('button', { name: 'Повторить' })).toBeVisible();
    await expect(pending.getByRole('button', { name: 'Удалить' })).toBeVisible();
    await axe(A.page, 'failed message');

    // A reload keeps it (and its automatic retry on connecting fails again: still unreachable).
    await A.page.reload();
    await openConversation(A.page, conversationId);
    await expect(messageWith(A.page, 'Сообщение из туннеля')).toHaveAttribute('data-delivery', 'failed');

    // The network comes back: the socket reconnects and the outbox sends it, once.
    await A.context.unroute('**/api/conversations/send');
    await A.context.setOffline(true);
    await expect(A.page.getByTestId('latency')).not.toHaveClass(/ping-live/, { timeout: 20_000 });
    await A.context.setOffline(false);
    const sent = messageWith(A.page, 'Сообщение из туннеля');
    await expect(sent).toHaveAttribute('data-delivery', /sent|read/, { timeout: 20_000 });
    await expect(messageWith(B.page, 'Сообщение из туннеля')).toHaveCount(1);
    const stored = (await history(srv.url, b, conversationId)).filter((m) => m.content === 'Сообщение из туннеля');
    expect(stored).toHaveLength(1);
    // Nothing is left to retry after another reload.
    await A.page.reload();
    await openConversation(A.page, conversationId);
    await expect(messageWith(A.page, 'Сообщение из туннеля')).toHaveCount(1);
    expect(
      await A.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('beseda.outbox.'))),
    ).toEqual([]);
  });
});
