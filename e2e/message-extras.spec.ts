// Editing, reactions, links and their cards, day lines and the unread divider in real Chromium against the real server, two users
// in two browser contexts, with axe checks of each state. Histories are seeded through the REST API and dated
// through the database (e2e/users.ts; srv.server.ctx.db), never by the test's clock.
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import type { TestServer } from '../tests/server/harness';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { sendText } from './users';

const messages = (page: Page) => page.getByTestId('message');
const messageWith = (page: Page, text: string) => messages(page).filter({ hasText: text });
const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');
const axe = (page: Page, label: string) => expectNoSeriousA11yViolations(page, label);

async function openConversation(page: Page, conversationId: string) {
  await page.locator(`[data-conversation-id="${conversationId}"]`).click();
  await expect(input(page)).toBeVisible();
}

const dateMessage = (srv: TestServer, id: string, at: Date) =>
  srv.server.ctx.db.updateTable('messages').set({ created_at: at.toISOString() }).where('id', '=', id).execute();

test.describe('chats page: edits, reactions, links, days, unread', () => {
  test('A edits from the menu and with ↑; B sees the new text and «изменено» live', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    await sendText(srv.url, a, conversationId, 'опечтка');
    const A = await openSignedIn(a);
    const B = await openSignedIn(b);
    await openConversation(A.page, conversationId);
    await openConversation(B.page, conversationId);

    await messageWith(A.page, 'опечтка').click({ button: 'right' });
    await A.page.getByRole('menuitem', { name: 'Изменить' }).click();
    const banner = A.page.getByTestId('edit-banner');
    await expect(banner).toContainText('Редактирование');
    await expect(banner).toContainText('опечтка');
    await expect(input(A.page)).toHaveValue('опечтка');
    await axe(A.page, 'editing a message');
    await input(A.page).fill('опечатка');
    await input(A.page).press('Enter');
    await expect(banner).toHaveCount(0);
    const edited = messageWith(B.page, 'опечатка');
    await expect(edited).toBeVisible();
    await expect(edited.getByTestId('edited-mark')).toHaveText(/изменено/);
    await expect(messageWith(B.page, 'опечтка')).toHaveCount(0);
    await axe(B.page, 'an edited message');

    // ↑ in the empty composer edits the last own message; Escape cancels, Enter saves.
    await sendText(srv.url, a, conversationId, 'второе');
    await expect(messageWith(A.page, 'второе')).toBeVisible();
    await input(A.page).click();
    await input(A.page).press('ArrowUp');
    await expect(banner).toContainText('второе');
    await input(A.page).press('Escape');
    await expect(banner).toHaveCount(0);
    await expect(input(A.page)).toHaveValue('');
    await input(A.page).press('ArrowUp');
    await input(A.page).fill('второе, исправленное');
    await input(A.page).press('Enter');
    await expect(messageWith(B.page, 'второе, исправленное').getByTestId('edited-mark')).toBeVisible();
  });

  test('A reacts; B sees the count, adds its own and takes it back', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    await sendText(srv.url, b, conversationId, 'новость');
    const A = await openSignedIn(a);
    const B = await openSignedIn(b);
    await openConversation(A.page, conversationId);
    await openConversation(B.page, conversationId);

    const onA = messageWith(A.page, 'новость');
    await onA.hover();
    await onA.getByRole('button', { name: 'Действия с сообщением' }).click();
    await A.page.getByRole('menuitem', { name: 'Реакция 👍' }).click();
    await expect(onA.getByRole('button', { name: '👍 1: Анна (ваша реакция)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    const onB = messageWith(B.page, 'новость');
    const thumbs = onB.getByTestId('reaction').and(onB.locator('[data-emoji="👍"]'));
    await expect(thumbs).toHaveAccessibleName('👍 1: Анна');
    await expect(thumbs).toHaveAttribute('aria-pressed', 'false');
    await axe(B.page, 'reactions under a message');
    await thumbs.click();
    await expect(thumbs).toHaveAccessibleName('👍 2: Анна, Борис (ваша реакция)');
    await expect(onA.getByRole('button', { name: /^👍 2: Анна, Борис/ })).toBeVisible();
    await thumbs.click();
    await expect(thumbs).toHaveAccessibleName('👍 1: Анна');
    await expect(onA.getByRole('button', { name: '👍 1: Анна (ваша реакция)' })).toBeVisible();

    // The hover button offers the whole set.
    await onB.hover();
    await onB.getByRole('button', { name: 'Поставить реакцию' }).click();
    await onB.getByRole('button', { name: 'Реакция 😂' }).click();
    await expect(onA.getByRole('button', { name: '😂 1: Борис' })).toBeVisible();
  });

  test('a link opens in a new tab; javascript: and markup stay text', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    const target = `${srv.url}/api/health`;
    await sendText(
      srv.url,
      b,
      conversationId,
      `смотри ${target} и javascript:alert(1) <img src=x onerror="window.__pwned=1">`,
    );
    const A = await openSignedIn(a);
    await openConversation(A.page, conversationId);
    const bubble = messageWith(A.page, 'смотри');
    const link = bubble.getByRole('link', { name: target });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    await expect(bubble.locator('a')).toHaveCount(1);
    await expect(bubble.locator('img')).toHaveCount(0);
    await expect(bubble).toContainText('javascript:alert(1) <img src=x onerror="window.__pwned=1">');
    expect(await A.page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    const [tab] = await Promise.all([A.context.waitForEvent('page'), link.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(target);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await axe(A.page, 'a message with a link');
  });

  test('day lines say «Вчера» and «Сегодня» for messages dated so in the database', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    const old = await sendText(srv.url, b, conversationId, 'вчерашнее');
    await sendText(srv.url, b, conversationId, 'сегодняшнее');
    const yesterdayNoon = new Date();
    yesterdayNoon.setDate(yesterdayNoon.getDate() - 1);
    yesterdayNoon.setHours(12, 0, 0, 0);
    await dateMessage(srv, old.id, yesterdayNoon);
    const A = await openSignedIn(a);
    await openConversation(A.page, conversationId);
    const days = A.page.locator('.msg-day');
    await expect(days).toHaveText(['Вчера', 'Сегодня']);
    await axe(A.page, 'history with day lines');
  });

  test('opening a conversation with unread messages lands on «Непрочитанные сообщения»', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    for (let i = 0; i < 15; i++) await sendText(srv.url, a, conversationId, `старое ${i}`);
    for (let i = 0; i < 30; i++) await sendText(srv.url, b, conversationId, `новое ${i}`);
    const A = await openSignedIn(a);
    await expect(A.page.locator(`[data-conversation-id="${conversationId}"]`)).toContainText('30');
    await openConversation(A.page, conversationId);
    const divider = A.page.getByTestId('unread-divider');
    await expect(divider).toBeInViewport({ timeout: 15_000 });
    await expect(divider).toHaveText('Непрочитанные сообщения');
    // It sits right above the first unread message, and the view is not at the bottom.
    await expect(A.page.locator('.msg-row').filter({ has: divider }).getByTestId('message')).toContainText('новое 0');
    await expect(messageWith(A.page, 'новое 29')).not.toBeInViewport();
    const jump = A.page.getByRole('button', { name: /К последним сообщениям/ });
    await expect(jump).toBeVisible();
    await expect(A.page.getByTestId('unread-below')).toHaveText(/\d+/);
    await axe(A.page, 'the unread divider');
    await jump.click();
    await expect(messageWith(A.page, 'новое 29')).toBeInViewport();
    // The list's count was reset on opening, as before.
    await expect(A.page.locator(`[data-conversation-id="${conversationId}"]`)).not.toContainText('30 непрочитанных');
  });
});

// A link card (docs/behaviour.md §10.30 Link previews): a local page stands in for a site, its name allow-listed for
// this test's own server only (every other test's server refuses loopback as it must).
const pageHost = 'preview.test';
const previewPorts = [80, 443];
let site: http.Server | null = null;

test.describe('link cards', () => {
  test.use({
    privateServerOptions: {
      linkPreviews: {
        enabled: true,
        allowHosts: [pageHost],
        ports: previewPorts,
        timeoutMs: 5_000,
        resolve: async (host) =>
          host === pageHost ? [{ address: '127.0.0.1', family: 4 }] : dns.promises.lookup(host, { all: true }),
      },
    },
  });
  test.beforeAll(async () => {
    const picture = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#2a6f97' } })
      .png()
      .toBuffer();
    site = http.createServer((req, res) => {
      if (req.url === '/picture.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(picture);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><meta property="og:site_name" content="Погода"><meta property="og:title" ' +
          'content="Прогноз на неделю"><meta property="og:description" content="Дожди до пятницы">' +
          '<meta property="og:image" content="/picture.png"></head></html>',
      );
    });
    await new Promise<void>((r) => site?.listen(0, '127.0.0.1', r));
    previewPorts.push((site.address() as AddressInfo).port);
  });
  test.afterAll(() => new Promise<void>((r) => (site ? site.close(() => r()) : r())));

  test('A sends a link; both see its card; only A may remove it, and it goes for both', async ({
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    const A = await openSignedIn(a);
    const B = await openSignedIn(b);
    await openConversation(A.page, conversationId);
    await openConversation(B.page, conversationId);
    const url = `http://${pageHost}:${previewPorts[2]}/weather`;
    await input(A.page).fill(`Смотри ${url}`);
    await input(A.page).press('Enter');

    for (const page of [A.page, B.page]) {
      const card = messageWith(page, 'Смотри').getByTestId('link-card');
      await expect(card).toContainText('Погода');
      await expect(card.getByRole('link', { name: /Прогноз на неделю/ })).toHaveAttribute('href', url);
      await expect(card.locator('img')).toHaveJSProperty('naturalWidth', 64);
    }
    await expect(messageWith(B.page, 'Смотри').getByRole('button', { name: 'Убрать предпросмотр' })).toHaveCount(0);
    await axe(B.page, 'a message with a link card');

    await messageWith(A.page, 'Смотри').getByRole('button', { name: 'Убрать предпросмотр' }).click();
    await expect(messageWith(B.page, 'Смотри').getByTestId('link-card')).toHaveCount(0);
    await expect(messageWith(A.page, 'Смотри').getByTestId('link-card')).toHaveCount(0);
  });
});
