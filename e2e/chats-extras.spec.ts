// The chats page's lightbox and narrow layout in real Chromium against the real server, with axe
// checks of each state. Users, friendships and messages are made through the REST API (e2e/users.ts); what is
// tested is what a person does on the page.
import type { BrowserContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { sendImages, sendText } from './users';

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** Chooses the conversation in the list pane: its tile carries the conversation id, or names the other person. */
async function openConversation(page: Page, conversationId: string, otherName: string) {
  const byId = page.getByTestId('chats-list-pane').locator(`[data-conversation-id="${conversationId}"]`);
  const tile =
    (await byId.count()) > 0
      ? byId.first()
      : page
          .getByTestId('chats-list-pane')
          .getByRole('button', { name: new RegExp(otherName) })
          .first();
  await tile.click();
}

/** A real touch drag (CDP touch events, as a finger would send them) across the page at height y. */
async function swipe(context: BrowserContext, page: Page, fromX: number, toX: number, y: number) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fromX, y }] });
  const steps = 8;
  for (let i = 1; i <= steps; i++) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: fromX + ((toX - fromX) * i) / steps, y }],
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.describe('chats page: lightbox and narrow layout', () => {
  test('an image message opens the lightbox: zoom −/100 %/+, arrows wrap, Escape closes and returns the focus', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    await sendImages(srv.url, a, conversationId, [
      { bytes: await png(640, 400, '#3b6cf0'), name: 'синий.png' },
      { bytes: await png(400, 640, '#1fa463'), name: 'зелёный.png' },
      { bytes: await png(500, 500, '#d23b3b'), name: 'красный.png' },
    ]);
    const { page } = await openSignedIn(b);
    await openConversation(page, conversationId, 'Анна');

    const message = page.locator('[data-testid="message"]').filter({ has: page.locator('img') });
    const thumbs = message.locator('img');
    await expect(thumbs).toHaveCount(3);
    // At most 320 px wide in the message (docs/behaviour.md §2).
    for (const box of [await thumbs.nth(0).boundingBox(), await thumbs.nth(1).boundingBox()]) {
      expect(box?.width ?? 0).toBeLessThanOrEqual(320.5);
    }
    await thumbs.nth(1).click();

    const dialog = page.getByRole('dialog', { name: 'Просмотр изображения' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('img', { name: 'зелёный.png' })).toBeVisible();
    await expect(dialog.getByText('зелёный.png · 2 из 3')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Закрыть' })).toBeFocused();
    await expectNoSeriousA11yViolations(page, 'lightbox open');

    // Zoom: + twice → 150 %, the picture really scaled; − down to the 25 % floor; 100 % back (one form, with a no-break space).
    const zoomIn = dialog.getByRole('button', { name: 'Увеличить' });
    const zoomOut = dialog.getByRole('button', { name: 'Уменьшить' });
    await zoomIn.click();
    await zoomIn.click();
    await expect(dialog.getByRole('status')).toHaveText('150 %');
    await expect(dialog).toHaveAttribute('data-zoom', '1.5');
    const scale = () =>
      dialog.getByRole('img').evaluate((img) => new DOMMatrixReadOnly(getComputedStyle(img).transform).a);
    await expect.poll(scale).toBeCloseTo(1.5, 2);
    for (let i = 0; i < 5; i++) await zoomOut.click();
    await expect(dialog.getByRole('status')).toHaveText('25 %');
    await expect(zoomOut).toHaveAttribute('aria-disabled', 'true');
    const reset = dialog.getByRole('button', { name: '100 %' });
    expect(await reset.textContent()).toBe('100\u00a0%');
    expect(await dialog.getByRole('status').textContent()).toBe('25\u00a0%');
    await reset.click();
    await expect(dialog.getByRole('status')).toHaveText('100 %');
    for (let i = 0; i < 12; i++) await zoomIn.click(); // 1 → 4 in steps of 0.25
    await expect(dialog.getByRole('status')).toHaveText('400 %');
    await expect(zoomIn).toHaveAttribute('aria-disabled', 'true');

    // Arrows: 2 → 3 → 1 (wraps) → 3 (wraps back); another image starts at 100 %.
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByRole('img', { name: 'красный.png' })).toBeVisible();
    await expect(dialog.getByRole('status')).toHaveText('100 %');
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByRole('img', { name: 'синий.png' })).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(dialog.getByRole('img', { name: 'красный.png' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Следующее изображение' }).click();
    await expect(dialog.getByText('синий.png · 1 из 3')).toBeVisible();

    // Tab stays inside the dialog.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // The focus is back on what opened it (the second image or its button).
    expect(
      await thumbs
        .nth(1)
        .evaluate(
          (img) => img === document.activeElement || img.parentElement?.contains(document.activeElement) === true,
        ),
    ).toBe(true);
  });

  test('375 px: list and conversation slide; swipes of 50 px and the back button move between them', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    await sendText(srv.url, a, conversationId, 'Привет! Как дела?');
    const { context, page } = await openSignedIn(b, {
      contextOptions: { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true },
    });
    const shell = page.getByTestId('chats-shell');
    await expect(shell).toHaveAttribute('data-layout', 'narrow');
    await expect(shell).toHaveAttribute('data-panel', 'list');
    await expect(page.getByTestId('chats-conversation-pane')).toHaveAttribute('inert', '');
    await expectNoSeriousA11yViolations(page, 'narrow list');

    // A left swipe with nothing selected stays on the list.
    await swipe(context, page, 300, 100, 400);
    await expect(shell).toHaveAttribute('data-panel', 'list');

    await openConversation(page, conversationId, 'Анна');
    await expect(shell).toHaveAttribute('data-panel', 'conversation');
    await expect(page.getByTestId('message').getByText('Привет! Как дела?')).toBeInViewport();
    await expect(page.getByTestId('chats-list-pane')).toHaveAttribute('inert', '');
    await expectNoSeriousA11yViolations(page, 'narrow conversation');

    // Right swipe of 40 px: not enough; 120 px: back to the list.
    await swipe(context, page, 100, 140, 400);
    await expect(shell).toHaveAttribute('data-panel', 'conversation');
    await swipe(context, page, 60, 180, 400);
    await expect(shell).toHaveAttribute('data-panel', 'list');
    await expect(page.getByTestId('chats-list-pane')).toBeInViewport();

    // Left swipe: the selected conversation comes back.
    await swipe(context, page, 300, 150, 400);
    await expect(shell).toHaveAttribute('data-panel', 'conversation');

    // The header's back button.
    await page.getByRole('button', { name: 'Назад к списку чатов' }).click();
    await expect(shell).toHaveAttribute('data-panel', 'list');
  });

  test('the shipped sounds are served, decode and play in Chromium after a click', async ({
    friends: { b },
    openSignedIn,
  }) => {
    const { page } = await openSignedIn(b);
    await expect(page.getByRole('navigation', { name: 'Разделы' })).toBeVisible();
    await page.mouse.click(2, 400); // a user gesture: playback allowed from now on
    const played = await page.evaluate(async () => {
      const out: Record<string, number> = {};
      for (const name of ['notify', 'ring']) {
        const audio = new Audio(`/sounds/${name}.wav`);
        audio.volume = 0.01;
        await audio.play();
        out[name] = audio.duration;
        audio.pause();
      }
      return out;
    });
    expect(played.notify).toBeGreaterThan(0.3);
    expect(played.notify).toBeLessThan(0.5);
    expect(played.ring).toBeCloseTo(2, 1);
  });

  test('wide screen: both panes side by side, no back button, the wide flag follows the message area', async ({
    friends: { b },
    openSignedIn,
  }) => {
    const { page } = await openSignedIn(b, { contextOptions: { viewport: { width: 1280, height: 800 } } });
    const shell = page.getByTestId('chats-shell');
    await expect(shell).toHaveAttribute('data-layout', 'wide-screen');
    await expect(page.getByTestId('chats-list-pane')).toBeInViewport();
    await expect(page.getByTestId('chats-conversation-pane')).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Назад к списку чатов' })).toHaveCount(0);
    // 1280 − the list (≤ 360 px) leaves ≥ 900 px for messages; at 1100 px it does not.
    await expect(shell).toHaveAttribute('data-wide', 'true');
    await page.setViewportSize({ width: 1100, height: 800 });
    await expect(shell).toHaveAttribute('data-wide', 'false');
  });
});
