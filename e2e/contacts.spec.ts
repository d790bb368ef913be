// Contacts, friend requests, EBLID search, group creation, avatar crop and settings: real Chromium
// against the real server, with two and three users in separate browser contexts.
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { expectPlaced } from './layout';
import { apiCall, directConversation, type E2EUser, makeFriends, socketFrames } from './users';

const footer = (page: Page) => page.locator('footer.chats-footer');
const selectedTile = (page: Page) => page.locator('[data-testid="chat-tile"][aria-current="true"]');
const contactsTile = (page: Page) => footer(page).getByRole('button', { name: 'Контакты' });
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

async function typeCode(page: Page, scope: Locator, code: string) {
  const boxes = scope.getByRole('group', { name: 'EBLID' }).getByRole('textbox');
  await boxes.first().click();
  await page.keyboard.type(code);
}

async function me(base: string, u: E2EUser) {
  return (
    await apiCall<{ user: { avatarUrl: string | null; displayName: string; status: string; bio: string | null } }>(
      base,
      'GET',
      '/api/status/me',
      undefined,
      u.accessToken,
    )
  ).user;
}

test.describe('contacts', () => {
  test('A finds B by EBLID and adds; B sees the request live and accepts; both are friends; "Открыть чат" opens the chat', async ({
    srv,
    createUser,
    openSignedIn,
  }) => {
    const a = await createUser('Анна', 'anna');
    const b = await createUser('Борис', 'boris');
    const { page: pageA } = await openSignedIn(a);
    const { page: pageB } = await openSignedIn(b);
    await expect(contactsTile(pageA)).toHaveAccessibleName(/^Контакты\s*,\s*Добавить контакт$/);
    await expect(contactsTile(pageB)).toHaveAccessibleName(/^Контакты\s*,\s*Добавить контакт$/);
    // The page-wide scans stay on this feature's parts (the shared shell has its own checks).
    await expectNoSeriousA11yViolations(pageA, 'chats footer');

    // Keyboard only: focus the tile, open the dialog, type the code, Enter adds.
    await contactsTile(pageA).focus();
    await pageA.keyboard.press('Enter');
    const dlgA = dialog(pageA, 'Контакты');
    await expect(dlgA).toBeVisible();
    await expect(dlgA.getByText(`Мой EBLID: ${a.user.eblid}`)).toBeVisible();
    await expect(dlgA.getByRole('group', { name: 'EBLID' }).getByRole('textbox').first()).toBeFocused();
    await pageA.keyboard.type(b.user.eblid);
    const found = dlgA.locator('.found-tile');
    await expect(found).toContainText('Найден по EBLID');
    await expect(found).toContainText('Борис');
    await expectNoSeriousA11yViolations(pageA, 'contacts dialog with a found user');
    await pageA.keyboard.press('Enter');
    await expect(dlgA.getByRole('status').filter({ hasText: 'Запрос отправлен' })).toBeVisible();
    await expect(dlgA.getByRole('group', { name: 'EBLID' }).getByRole('textbox').first()).toHaveValue('');

    // B: the tile and the dialog change without a reload.
    await expect(contactsTile(pageB)).toHaveAccessibleName(/^Контакты\s*,\s*Новый запрос в друзья$/);
    await contactsTile(pageB).click();
    const dlgB = dialog(pageB, 'Контакты');
    const requestRow = dlgB.getByRole('listitem').filter({ hasText: 'хочет добавить вас' });
    await expect(requestRow).toContainText('Анна');
    await expectNoSeriousA11yViolations(pageB, 'contacts dialog with a request');
    await requestRow.getByRole('button', { name: 'Добавить' }).click();
    await expect(dlgB.getByText('Нет новых запросов')).toBeVisible();

    // Both sides list each other under 'Мои друзья' (A's open dialog updates live).
    await expect(dlgB.locator('.friends-list')).toContainText('Анна');
    await expect(dlgA.locator('.friends-list')).toContainText('Борис');
    await expect(contactsTile(pageB)).toHaveAccessibleName(/^Контакты\s*,\s*Список контактов$/);

    // 'Открыть чат' opens the direct conversation on the chats page.
    const created = pageA.waitForResponse(
      (r) => r.url().endsWith('/api/conversations/with') && r.request().method() === 'POST',
    );
    await dlgA.locator('.friends-list').getByRole('button', { name: 'Открыть чат' }).click();
    const res = await created;
    expect(res.status()).toBe(200);
    const { conversation } = await res.json();
    expect(conversation.participants.map((p: { user: { id: string } }) => p.user.id).sort()).toEqual(
      [a.user.id, b.user.id].sort(),
    );
    await expect(dlgA).toBeHidden();
    // The chats actor got `chats.open`: the conversation is selected, shown, and at its own address.
    await expect(pageA).toHaveURL(`${srv.url}/c/${conversation.id}`);
    await expect(selectedTile(pageA)).toHaveAttribute('data-conversation-id', conversation.id);
    await expect(pageA.locator('.conv-title')).toHaveText('Борис');
  });

  test('the contacts page: add by username, live incoming row, accept, "Начать чат"; filters', async ({
    srv,
    createUser,
    openSignedIn,
  }) => {
    const a = await createUser('Анна', 'anna');
    const c = await createUser('Вера', 'vera');
    const { page: pageA } = await openSignedIn(a, { path: '/contacts' });
    const { page: pageC } = await openSignedIn(c, { path: '/contacts' });
    await expect(pageA.getByRole('heading', { level: 1, name: 'Контакты' })).toBeVisible();
    await expectNoSeriousA11yViolations(pageA, 'contacts page (empty)');

    const field = pageA.getByRole('textbox', { name: 'ID / ник / email' });
    await field.fill(`@${c.username}`);
    await pageA.getByRole('button', { name: 'Добавить' }).click();
    await expect(pageA.getByText('Запрос отправлен')).toBeVisible();
    await expect(field).toHaveValue('');
    const rowA = pageA.getByRole('listitem').filter({ hasText: 'Вера' });
    await expect(rowA).toContainText('pending');
    await expect(rowA).toContainText('ожидание подтверждения…');

    const rowC = pageC.getByRole('listitem').filter({ hasText: 'Анна' });
    await expect(rowC).toContainText('pending');
    await expectNoSeriousA11yViolations(pageC, 'contacts page with an incoming request');
    // Filters: the request is incoming, not outgoing.
    const filter = pageC.getByRole('combobox', { name: 'Показать' });
    await filter.selectOption({ label: 'Исходящие' });
    await expect(rowC).toBeHidden();
    await filter.selectOption({ label: 'Входящие' });
    await expect(rowC).toBeVisible();
    await rowC.getByRole('button', { name: 'Принять' }).click();
    await expect(rowC).toBeHidden(); // no longer incoming
    await filter.selectOption({ label: 'Друзья' });
    await expect(rowC).toContainText('accepted');

    // A's row turns into a friendship without a reload.
    await expect(rowA).toContainText('accepted');
    const created = pageA.waitForResponse((r) => r.url().endsWith('/api/conversations/with'));
    await rowA.getByRole('button', { name: 'Начать чат' }).click();
    const res = await created;
    expect(res.status()).toBe(200);
    await expect(pageA).toHaveURL(`${srv.url}/c/${(await res.json()).conversation.id}`);
    await expect(selectedTile(pageA)).toHaveAttribute('data-conversation-id', (await res.json()).conversation.id);
    await expect(pageA.locator('.conv-title')).toHaveText('Вера');

    // An unknown identifier says so.
    await pageC.getByRole('textbox', { name: 'ID / ник / email' }).fill('nobody-with-this-name');
    await pageC.getByRole('button', { name: 'Добавить' }).click();
    await expect(pageC.getByRole('alert')).toHaveText('Пользователь не найден');
  });

  test('many friends and requests: every row whole and reachable on the contacts page and in the dialog, laptop and phone', async ({
    srv,
    createUser,
    openSignedIn,
  }) => {
    const a = await createUser('Анна', 'anna');
    const people = await Promise.all(
      [...Array(10).keys()].map((i) => createUser(i < 6 ? `Друг Длинноименный ${i}` : `Просит Заявкин ${i}`, 'p')),
    );
    for (const f of people.slice(0, 6)) await makeFriends(srv.url, a, f);
    for (const r of people.slice(6))
      await apiCall(srv.url, 'POST', '/api/contacts/add', { identifier: a.user.eblid }, r.accessToken);
    const { page } = await openSignedIn(a, { path: '/contacts' });
    /**
     * Each row's buttons lie whole inside it, clear of its name and line as drawn (one look at the whole list); the
     * last row, scrolled to, lies whole in its scroll container with its buttons on top.
     */
    const rowsPlaced = async (list: Locator, scope: Locator, at: string) => {
      const rowProblems = () =>
        list.evaluate((ul) =>
          [...ul.querySelectorAll('li')].flatMap((li, i) => {
            const row = li.getBoundingClientRect();
            const texts = [...li.querySelectorAll('.person-text > *')].map((e) => {
              const range = document.createRange();
              range.selectNodeContents(e);
              return range.getBoundingClientRect();
            });
            return [...li.querySelectorAll('button')].flatMap((b) => {
              const r = b.getBoundingClientRect();
              const out =
                r.left < row.left - 0.5 ||
                r.right > row.right + 0.5 ||
                r.top < row.top - 0.5 ||
                r.bottom > row.bottom + 0.5;
              const over = texts.some(
                (t) =>
                  r.left < t.right - 0.5 && t.left < r.right - 0.5 && r.top < t.bottom - 0.5 && t.top < r.bottom - 0.5,
              );
              return [
                ...(out ? [`row ${i + 1}: «${b.textContent}» outside the row`] : []),
                ...(over ? [`row ${i + 1}: «${b.textContent}» over the text`] : []),
              ];
            });
          }),
        );
      await expect.poll(rowProblems, { message: `the rows ${at}` }).toEqual([]);
      const last = list.getByRole('listitem').last();
      await expectPlaced(last, scope, `the last row ${at}`);
      for (const button of await last.getByRole('button').all())
        await expectPlaced(button, last, `a button of the last row ${at}`);
    };
    for (const colorScheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const [width, height] of [
        [1366, 768],
        [390, 844],
      ] as const) {
        const at = `at ${width}×${height}, ${colorScheme}`;
        await page.setViewportSize({ width, height });
        await page.goto('/contacts');
        const list = page.getByRole('list', { name: 'Список контактов' });
        await expect(list.getByRole('listitem')).toHaveCount(10);
        await rowsPlaced(list, list, `on the contacts page ${at}`);
        // The dialog from the chats' footer: requests and friends scroll with the dialog, the last friend reached whole.
        await page.goto('/');
        await contactsTile(page).click();
        const dlg = dialog(page, 'Контакты');
        const box = page.locator('.modal');
        await expect(dlg.getByRole('listitem').filter({ hasText: 'Просит' })).toHaveCount(4);
        await expect(dlg.getByRole('listitem').filter({ hasText: 'Друг' })).toHaveCount(6);
        for (const list of await dlg.getByRole('list').all()) await rowsPlaced(list, box, `in the dialog ${at}`);
        await dlg.getByRole('button', { name: 'Закрыть окно' }).click();
        await expect(dlg).toBeHidden();
      }
    }
  });

  test('a slow answer for an older code never replaces the newer one', async ({ createUser, openSignedIn }) => {
    const a = await createUser('Анна', 'anna');
    const b = await createUser('Борис', 'boris');
    const { page } = await openSignedIn(a);
    const stale = b.user.eblid === '0000' ? '0001' : '0000';
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route(`**/api/contacts/search?code=${stale}`, async (route) => {
      await held;
      await route.continue();
    });
    await footer(page).getByText('Поиск по EBLID').click();
    const panel = footer(page);
    const staleAsked = page.waitForRequest((r) => r.url().includes(`code=${stale}`));
    await typeCode(page, panel, stale);
    await staleAsked;
    // The newer code: clear the boxes and type B's.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type(b.user.eblid);
    await expect(panel.locator('.found-tile')).toContainText('Борис');
    const staleAnswered = page.waitForResponse((r) => r.url().includes(`code=${stale}`));
    release();
    // The client may have dropped it already; if not, its body is read and the next frame drawn before looking.
    await (await staleAnswered.catch(() => null))?.finished();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await expect(panel.locator('.found-tile')).toContainText('Борис');
    await expect(panel.getByRole('group', { name: 'EBLID' }).getByRole('textbox').last()).toHaveValue(b.user.eblid[3]);
  });

  test('a three-member group is created and reaches every member', async ({ srv, createUser, openSignedIn }) => {
    const a = await createUser('Анна', 'anna');
    const b = await createUser('Борис', 'boris');
    const c = await createUser('Вера', 'vera');
    await makeFriends(srv.url, a, b);
    await makeFriends(srv.url, a, c);
    const { page: pageB } = await openSignedIn(b);
    const framesB = socketFrames(pageB);
    await pageB.reload();
    const { page: pageC } = await openSignedIn(c);
    const framesC = socketFrames(pageC);
    await pageC.reload();
    const { page: pageA } = await openSignedIn(a);

    await footer(pageA).getByRole('button', { name: 'Новая беседа' }).click();
    const dlg = dialog(pageA, 'Создать групповой чат');
    await expect(dlg).toBeVisible();
    await expect(dlg.getByRole('checkbox')).toHaveCount(2);
    await expectNoSeriousA11yViolations(pageA, 'group dialog');
    // Nobody ticked: nothing happens.
    let posted = 0;
    pageA.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/conversations') posted++;
    });
    await dlg.getByRole('button', { name: 'Создать' }).click();
    await expect(dlg).toBeVisible();
    expect(posted).toBe(0);

    await dlg.getByRole('textbox', { name: 'Название' }).fill('Дача');
    const borisRow = dlg.locator('label').filter({ hasText: 'Борис' });
    await expect(borisRow).toContainText('Нажмите, чтобы выбрать');
    await borisRow.click();
    await expect(borisRow).toContainText('Выбрано');
    // Keyboard: Space ticks the focused checkbox.
    await dlg.getByRole('checkbox', { name: /Вера/ }).focus();
    await pageA.keyboard.press('Space');
    await expect(dlg.getByRole('checkbox', { name: /Вера/ })).toBeChecked();
    const created = pageA.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/conversations',
    );
    await dlg.getByRole('button', { name: 'Создать' }).click();
    const res = await created;
    expect(res.ok()).toBe(true);
    const { conversation } = await res.json();
    expect(conversation).toMatchObject({ title: 'Дача', isGroup: true });
    expect(conversation.participants).toHaveLength(3);
    await expect(dlg).toBeHidden();
    await expect(pageA).toHaveURL(`${srv.url}/c/${conversation.id}`);

    // A sees the group opened; every member has it in the chats list, live.
    await expect(selectedTile(pageA)).toHaveAttribute('data-conversation-id', conversation.id);
    await expect(pageA.locator('.conv-title')).toHaveText('Дача');
    for (const page of [pageB, pageC]) {
      await expect(page.getByTestId('chat-tile').filter({ hasText: 'Дача' })).toHaveAttribute(
        'data-conversation-id',
        conversation.id,
      );
    }
    for (const frames of [framesB, framesC]) {
      await expect
        .poll(() => frames.some((f) => f.includes('conversations:new') && f.includes(conversation.id)))
        .toBe(true);
    }
    for (const u of [a, b, c]) {
      const list = await apiCall<{ conversations: { conversation: { id: string; title: string } }[] }>(
        srv.url,
        'GET',
        '/api/conversations',
        undefined,
        u.accessToken,
      );
      expect(list.conversations.map((e) => e.conversation.title)).toContain('Дача');
    }
  });

  test('A uploads and crops an avatar; B sees it change without reloading (contacts page and chats list)', async ({
    srv,
    createUser,
    openSignedIn,
  }) => {
    const a = await createUser('Анна', 'anna');
    const b = await createUser('Борис', 'boris');
    await makeFriends(srv.url, a, b);
    const conversationId = await directConversation(srv.url, a, b);
    const { page: pageB } = await openSignedIn(b, { path: '/contacts' });
    const { page: chatsB } = await openSignedIn(b);
    const tileB = chatsB.locator(`[data-testid="chat-tile"][data-conversation-id="${conversationId}"]`);
    await expect(tileB).toContainText('Анна');
    await expect(tileB.locator('img')).toHaveCount(0);
    const annaRow = pageB.getByRole('listitem').filter({ hasText: 'Анна' });
    await expect(annaRow).toContainText('accepted');
    await expect(annaRow.locator('img')).toHaveCount(0);

    const { page: pageA } = await openSignedIn(a);
    await pageA.clock.install(); // runs in real time until the test moves it on
    await footer(pageA)
      .getByRole('button', { name: new RegExp(`EBLID ${a.user.eblid}`) })
      .click();
    const dlg = dialog(pageA, 'Профиль');
    await expect(dlg.getByText(a.user.eblid)).toBeVisible();
    await expectNoSeriousA11yViolations(pageA, 'profile dialog');

    // A 400×240 picture: the saved avatar must be the square cut from it, not the picture itself.
    const png = await sharp({ create: { width: 400, height: 240, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .composite([
        {
          input: { create: { width: 200, height: 240, channels: 3, background: { r: 40, g: 40, b: 200 } } },
          left: 200,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    await dlg
      .getByLabel('Перетащите файл сюда или нажмите, чтобы выбрать')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    const stage = dlg.locator('.crop-stage');
    await expect(stage).toBeVisible();
    await expect(stage).toHaveCSS('height', '300px');
    const window = stage.locator('.reactEasyCrop_CropArea');
    await expect(window).toHaveCSS('width', '220px');
    await expect(window).toHaveCSS('border-radius', '50%');
    // Drag the picture, then scale it with 'Масштаб'.
    const box = (await stage.boundingBox())!;
    await pageA.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await pageA.mouse.down();
    await pageA.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 10, { steps: 5 });
    await pageA.mouse.up();
    await dlg.getByRole('slider', { name: 'Масштаб' }).fill('1.6');
    await expectNoSeriousA11yViolations(pageA, 'avatar editor');

    // The page's clock stops before the upload, so that only the test moves it while 'Готово' is timed: running in
    // real time, it went on during the save, the check that 'Готово' shows and the jump itself, and on a loaded
    // machine that took up the 0.7 s the 1.5-s jump leaves before 'Готово' goes.
    await pageA.clock.pauseAt(await pageA.evaluate(() => Date.now() + 1_000));
    const uploaded = pageA.waitForResponse((r) => r.url().endsWith('/api/upload'));
    await dlg.getByRole('button', { name: 'Загрузить' }).click();
    expect((await uploaded).status()).toBe(201);
    // 'Готово' stays a little over 2 s: on the page's own clock, still there 1.5 s on, gone 1 s later.
    const done = dlg.getByRole('status').filter({ hasText: 'Готово' });
    await expect(done).toBeVisible();
    await pageA.clock.fastForward(1_500);
    await expect(done).toBeVisible();
    await pageA.clock.fastForward(1_000);
    await expect(done).toBeHidden();
    await pageA.clock.resume();

    const avatarUrl = (await me(srv.url, a)).avatarUrl!;
    expect(avatarUrl).toMatch(/^\/uploads\//);
    const image = Buffer.from(await (await fetch(srv.url + avatarUrl)).arrayBuffer());
    const meta = await sharp(image).metadata();
    expect(meta.width).toBe(meta.height);
    expect(meta.width).toBeLessThanOrEqual(512);

    // A's own tile and B's page follow, without a reload.
    await expect(footer(pageA).locator('.own-tile img')).toHaveAttribute('src', avatarUrl);
    await expect(annaRow.locator('img')).toHaveAttribute('src', avatarUrl);
    await expect(tileB.locator('img')).toHaveAttribute('src', avatarUrl);
    await dlg.getByRole('button', { name: 'Закрыть', exact: true }).click();
    await expect(dlg).toBeHidden();
  });

  test('settings changes persist across a reload', async ({ srv, createUser, openSignedIn }) => {
    const a = await createUser('Анна', 'anna');
    const { page } = await openSignedIn(a, { path: '/settings' });
    const form = page.getByRole('form', { name: 'Профиль' });
    await expect(form.getByRole('textbox', { name: 'Имя' })).toHaveValue('Анна');
    await expectNoSeriousA11yViolations(page, 'settings page');
    await form.getByRole('textbox', { name: 'Имя' }).fill('Анна Петрова');
    await form.getByRole('combobox', { name: 'Статус' }).selectOption({ label: 'Не беспокоить' });
    await form.getByRole('textbox', { name: 'О себе' }).fill('Люблю горы');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await expect(form.getByRole('status')).toHaveText('Сохранено');
    expect(await me(srv.url, a)).toMatchObject({ displayName: 'Анна Петрова', status: 'DND', bio: 'Люблю горы' });

    await page.reload();
    await expect(form.getByRole('textbox', { name: 'Имя' })).toHaveValue('Анна Петрова');
    await expect(form.getByRole('combobox', { name: 'Статус' })).toHaveValue('DND');
    await expect(form.getByRole('textbox', { name: 'О себе' })).toHaveValue('Люблю горы');

    // A refused value shows the server's message.
    await form.getByRole('textbox', { name: 'Имя' }).fill('  Я ');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await expect(form.getByRole('alert')).toContainText('Имя — не короче 2 символов');
  });
});

test.describe('EBLID search limit', () => {
  test.use({ privateServerOptions: { codeSearchPerMinute: 2 } });

  test('the per-minute limit shows a short message instead of silence', async ({ createUser, openSignedIn }) => {
    const a = await createUser('Анна', 'anna');
    const { page } = await openSignedIn(a);
    await footer(page).getByText('Поиск по EBLID').click();
    const panel = footer(page);
    const last = panel.getByRole('group', { name: 'EBLID' }).getByRole('textbox').last();
    await typeCode(page, panel, '1110');
    for (const digit of ['1', '2']) {
      const answered = page.waitForResponse((r) => r.url().includes('/api/contacts/search'));
      await last.press('Backspace');
      await page.keyboard.type(digit);
      await answered;
    }
    await expect(panel.getByRole('alert')).toHaveText('Слишком много поисков. Попробуйте через минуту.');
  });
});
