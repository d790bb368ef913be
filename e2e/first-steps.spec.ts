// What a new user meets in the first minutes, on a desktop and on a phone: the emoji picker wholly on screen, every
// «@имя» readable in every bubble and both themes, Back from «Информация» returning to the chat, and a group photo
// cropped in the narrow info panel that comes out square and filled.
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, createGroup, type E2EUser, makeFriends, signInContext } from './users';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SIZES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

const panel = (page: Page) => page.getByRole('complementary', { name: 'Информация' });

const group = createGroup;

const send = (base: string, u: E2EUser, conversationId: string, content: string, mentions: E2EUser[]) =>
  apiCall(
    base,
    'POST',
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content, mentions: mentions.map((m) => m.user.id) },
    u.accessToken,
  );

for (const [size, viewport] of SIZES) {
  test(`the emoji picker lies wholly inside the viewport, its grid counted from 1 (${size})`, async ({
    friends: { b, conversationId },
    openSignedIn,
  }) => {
    const { page } = await openSignedIn(b, { path: `/c/${conversationId}`, contextOptions: { viewport } });
    await page.getByRole('button', { name: 'Эмодзи' }).click();
    const picker = page.getByRole('dialog', { name: 'Эмодзи' });
    await expect(picker.getByRole('gridcell', { name: /./ }).first()).toBeVisible();
    const box = (await picker.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    // ARIA counts a grid's rows and columns from 1.
    await expect(picker.locator('[aria-rowindex="0"], [aria-colindex="0"]')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, `emoji picker (${size})`);
  });
}

/** WCAG contrast of each «@имя» against what is painted behind it (its own and its ancestors' backgrounds). */
function mentionContrasts(page: Page) {
  return page.locator('.msg-mention').evaluateAll((els) => {
    type Rgba = [number, number, number, number];
    const parse = (c: string): Rgba => {
      const n = c.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [n[0], n[1], n[2], n[3] ?? 1];
    };
    // Paints `top` over an opaque `bottom`.
    const over = (top: Rgba, bottom: Rgba): Rgba => [
      top[0] * top[3] + bottom[0] * (1 - top[3]),
      top[1] * top[3] + bottom[1] * (1 - top[3]),
      top[2] * top[3] + bottom[2] * (1 - top[3]),
      1,
    ];
    const backdrop = (el: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      let colour: Rgba = [255, 255, 255, 1];
      for (const layer of layers.reverse()) colour = over(layer, colour);
      return colour;
    };
    const luminance = ([r, g, b]: Rgba) => {
      const lin = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    return els.map((el) => {
      const bg = backdrop(el);
      const fg = over(parse(getComputedStyle(el).color), bg);
      const [l1, l2] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
      const own = el.closest('.msg-row')?.classList.contains('own') ?? false;
      const text = `${own ? 'own' : 'other'} ${el.classList.contains('me') ? 'me' : 'other'}: ${el.textContent}`;
      return { text, ratio: Math.round(((l1 + 0.05) / (l2 + 0.05)) * 100) / 100 };
    });
  });
}

test('every «@имя» has a contrast of at least 4.5:1 in own and others’ bubbles, light and dark', async ({
  srv,
  createUser,
  newContext,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  const id = await group(srv.url, anna, [boris, vera], 'Поход');
  // Seen by Анна: her own bubble naming Бориса; Борис's naming her (her own mention) and naming Веру.
  await send(srv.url, anna, id, '@Борис берёт палатку', [boris]);
  await send(srv.url, boris, id, '@Анна, договорились', [anna]);
  await send(srv.url, boris, id, '@Вера возьмёт спички', [vera]);
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await newContext({ baseURL: srv.url, colorScheme, viewport: DESKTOP });
    await signInContext(context, anna);
    const page = await context.newPage();
    await page.goto(`${srv.url}/c/${id}`);
    await expect(page.locator('.msg-mention')).toHaveCount(3);
    const low = (await mentionContrasts(page)).filter((c) => c.ratio < 4.5);
    expect(low, `${colorScheme}: mentions under 4.5:1`).toEqual([]);
  }
});

test('on a phone, Back from a chat’s «Информация» returns to the chat', async ({
  friends: { b, conversationId },
  openSignedIn,
}) => {
  const { page } = await openSignedIn(b, {
    contextOptions: { viewport: PHONE, hasTouch: true, isMobile: true },
  });
  const shell = page.getByTestId('chats-shell');
  await expect(shell).toHaveAttribute('data-panel', 'list');
  await page.locator(`[data-conversation-id="${conversationId}"]`).click();
  await expect(shell).toHaveAttribute('data-panel', 'conversation');
  await page.locator('.conv-title').getByRole('button', { name: 'Анна' }).click();
  await expect(panel(page)).toBeVisible();
  await page.goBack();
  await expect(panel(page)).toHaveCount(0);
  await expect(shell).toHaveAttribute('data-panel', 'conversation');
  await expect(page).toHaveURL(new RegExp(`/c/${conversationId}$`));
  // The panel's own «×» after Back-and-forth still leaves the chat open.
  await page.locator('.conv-title').getByRole('button', { name: 'Анна' }).click();
  await expect(panel(page)).toBeVisible();
  await panel(page).getByRole('button', { name: 'Закрыть' }).click();
  await expect(panel(page)).toHaveCount(0);
  await expect(shell).toHaveAttribute('data-panel', 'conversation');
});

test('a group photo cropped in the narrow «Информация» comes out square and filled', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  await makeFriends(srv.url, anna, boris);
  const id = await group(srv.url, anna, [boris], 'Дача');
  const { page } = await openSignedIn(anna, { path: `/c/${id}`, contextOptions: { viewport: DESKTOP } });
  await page.locator('.conv-title').getByRole('button', { name: 'Дача' }).click();
  await panel(page).getByRole('button', { name: 'Изменить фото' }).click();
  // A wide picture: a crop window wider than the image shown would leave empty bands.
  const png = await sharp({ create: { width: 400, height: 240, channels: 3, background: { r: 40, g: 160, b: 90 } } })
    .png()
    .toBuffer();
  await panel(page)
    .getByLabel('Перетащите файл сюда или нажмите, чтобы выбрать')
    .setInputFiles({ name: 'dacha.png', mimeType: 'image/png', buffer: png });
  await expect(panel(page).locator('.crop-stage')).toBeVisible({ timeout: 15_000 });
  await panel(page).getByRole('button', { name: 'Загрузить' }).click();
  const picture = page.locator('.conv-head img');
  await expect(picture).toHaveAttribute('src', /\/uploads\//);
  const image = Buffer.from(await (await fetch(srv.url + (await picture.getAttribute('src')))).arrayBuffer());
  const meta = await sharp(image).metadata();
  expect(meta.width).toBe(meta.height);
  const stats = await sharp(image).stats();
  expect(stats.isOpaque).toBe(true);
});
