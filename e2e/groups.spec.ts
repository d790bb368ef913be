// A group's life in real Chromium against the real server, with three people in separate browser contexts: the
// owner adds a friend from «Информация», who sees the history from joining on (history «Скрыта»); the owner makes her an admin; she
// renames the group and everyone sees the title and the SYSTEM entry live; a member leaves and gets nothing more.
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { apiCall, makeFriends, socketFrames } from './users';

const tile = (page: Page, title: string) => page.getByTestId('chat-tile').filter({ hasText: title });
const panel = (page: Page) => page.getByRole('complementary', { name: 'Информация' });

test('a group grows, gets an admin, is renamed and loses a member, live for everyone', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  const { conversation } = await apiCall<{ conversation: { id: string } }>(
    srv.url,
    'POST',
    '/api/conversations',
    { participantIds: [boris.user.id], title: 'Дача', isGroup: true },
    anna.accessToken,
  );
  const send = (token: string, content: string) =>
    apiCall(
      srv.url,
      'POST',
      '/api/conversations/send',
      { conversationId: conversation.id, type: 'TEXT', content },
      token,
    );
  await send(anna.accessToken, 'до Веры');
  // «Скрыта»: Вера reads from her joining on (group-history.spec.ts shows a new group's «Видна»).
  await apiCall(
    srv.url,
    'POST',
    '/api/conversations/history',
    { conversationId: conversation.id, visible: false },
    anna.accessToken,
  );

  const { page: pa } = await openSignedIn(anna);
  const { page: pb } = await openSignedIn(boris);
  const { page: pc } = await openSignedIn(vera);
  const framesB = socketFrames(pb);
  await pb.reload();

  // Анна opens the group and its «Информация» from the title.
  await tile(pa, 'Дача').click();
  await pa.locator('.conv-title').getByRole('button', { name: 'Дача' }).click();
  await expect(panel(pa)).toBeVisible();
  await expect(panel(pa).locator('.info-subtitle')).toHaveText('2 участника');
  await expect(panel(pa).getByTestId('member').filter({ hasText: 'Анна' })).toContainText('владелец');
  await expectNoSeriousA11yViolations(pa, 'info panel');

  // She adds Вера, who had no part in the history before.
  await panel(pa).getByRole('button', { name: 'Добавить участников' }).click();
  await tick(panel(pa).getByRole('checkbox', { name: /Вера/ }));
  await panel(pa).getByRole('button', { name: 'Добавить', exact: true }).click();
  await expect(panel(pa).locator('.info-subtitle')).toHaveText('3 участника');
  await expect(pa.getByTestId('system-entry').last()).toContainText('Анна добавил(а) участника: Вера');
  await tile(pc, 'Дача').click();
  await expect(pc.getByTestId('system-entry')).toContainText('Анна добавил(а) участника: Вера');
  await expect(pc.getByText('до Веры')).toHaveCount(0);

  // Анна makes her an admin from the member's menu.
  const veraRow = panel(pa).getByTestId('member').filter({ hasText: 'Вера' });
  await veraRow.getByLabel('Действия: Вера').click();
  await expectNoSeriousA11yViolations(pa, 'member menu');
  await veraRow.getByRole('button', { name: 'Сделать администратором' }).click();
  await expect(veraRow).toContainText('администратор');

  // Борис keeps the group open while Вера renames it.
  await tile(pb, 'Дача').click();
  await pc.locator('.conv-title').getByRole('button', { name: 'Дача' }).click();
  await panel(pc).getByRole('button', { name: 'Изменить название' }).click();
  await panel(pc).getByRole('textbox', { name: 'Название группы' }).fill('Дача 2026');
  await panel(pc).getByRole('button', { name: 'Сохранить' }).click();
  for (const page of [pa, pb, pc]) {
    await expect(page.locator('.conv-title')).toHaveText('Дача 2026');
    await expect(tile(page, 'Дача 2026')).toHaveCount(1);
  }
  await expect(pb.getByTestId('system-entry').last()).toContainText('Вера изменил(а) название: «Дача 2026»');

  // Борис leaves: the group closes for him and nothing of it reaches him afterwards.
  await pb.locator('.conv-title').getByRole('button').click();
  await panel(pb).getByRole('button', { name: 'Покинуть группу' }).click();
  await expect(panel(pb).getByRole('alertdialog', { name: 'Покинуть группу?' })).toBeVisible();
  await panel(pb).getByRole('button', { name: 'Покинуть', exact: true }).click();
  await expect(tile(pb, 'Дача 2026')).toHaveCount(0);
  await expect(panel(pb)).toHaveCount(0);
  await expect(pa.getByTestId('system-entry').last()).toContainText('Борис покинул(а) группу');
  await expect(panel(pa).locator('.info-subtitle')).toHaveText('2 участника');
  const before = framesB.length;
  await send(anna.accessToken, 'уже без Бориса');
  await expect(pc.getByTestId('message').getByText('уже без Бориса')).toBeVisible();
  expect(framesB.slice(before).some((f) => f.includes('уже без Бориса'))).toBe(false);
  await expect(pb.getByText('уже без Бориса')).toHaveCount(0);

  // The owner gives the group a picture with the profile's crop editor: everyone's header shows it.
  await panel(pa).getByRole('button', { name: 'Изменить фото' }).click();
  const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 40, g: 160, b: 90 } } })
    .png()
    .toBuffer();
  await panel(pa)
    .getByLabel('Перетащите файл сюда или нажмите, чтобы выбрать')
    .setInputFiles({ name: 'dacha.png', mimeType: 'image/png', buffer: png });
  // The editor's code and its actor come when it opens (a chunk of its own): the first frame may take a while.
  await expect(panel(pa).locator('.crop-stage')).toBeVisible({ timeout: 15_000 });
  await panel(pa).getByRole('button', { name: 'Загрузить' }).click();
  await expect(pa.getByTestId('system-entry').last()).toContainText('Анна изменил(а) фото группы');
  await expect(pc.locator('.conv-head img')).toHaveAttribute('src', /\/uploads\//);

  // Escape closes «Информация».
  await pa.keyboard.press('Escape');
  await expect(panel(pa)).toHaveCount(0);
});

test('a block stops the direct chat both ways in the UI, and «Разблокировать» brings it back', async ({
  friends,
  openSignedIn,
}) => {
  const { a, b } = friends;
  const { page: pa } = await openSignedIn(a);
  const { page: pb } = await openSignedIn(b);
  const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');
  await pa.getByTestId('chat-tile').first().click();
  await pb.getByTestId('chat-tile').first().click();

  await pa.locator('.conv-title').getByRole('button').click();
  // The panel's code loads with it: audited once it is there.
  await expect(panel(pa).getByRole('button', { name: 'Заблокировать' })).toBeVisible();
  await expectNoSeriousA11yViolations(pa, 'direct chat info');
  await panel(pa).getByRole('button', { name: 'Заблокировать' }).click();
  await expect(pa.getByRole('status').filter({ hasText: 'Вы заблокировали этого пользователя' })).toBeVisible();
  await expect(input(pa)).toHaveCount(0);
  await expect(panel(pa).getByRole('button', { name: 'Разблокировать' })).toBeVisible();

  // Борис's message is refused with the server's words and never reaches Анна.
  await input(pb).fill('ты тут?');
  await input(pb).press('Enter');
  const refused = pb.locator('[data-testid="message"][data-delivery="failed"]');
  await expect(refused).toBeVisible();
  await expect(pa.getByText('ты тут?')).toHaveCount(0);

  // Settings lists him; unblocking from the chat gives the composer back and messages flow again.
  await pa.keyboard.press('Escape');
  await pa.getByRole('status').getByRole('button', { name: 'Разблокировать' }).click();
  await expect(input(pa)).toBeVisible();
  await input(pa).fill('снова на связи');
  await input(pa).press('Enter');
  await expect(pb.getByTestId('message').getByText('снова на связи')).toBeVisible();
});

test('the contacts page blocks a friend; Settings lists the people one blocked, with «Разблокировать»', async ({
  friends,
  openSignedIn,
}) => {
  const { a, b } = friends;
  const { page } = await openSignedIn(a, { path: '/contacts' });
  const row = page.locator('.contact-row').filter({ hasText: b.user.displayName });
  await row.getByRole('button', { name: 'Заблокировать' }).click();
  await expect(row.getByRole('button', { name: 'Разблокировать' })).toBeVisible();
  await page.getByRole('link', { name: 'Настройки' }).click();
  const section = page.getByRole('region', { name: 'Заблокированные' });
  await expect(section.getByText(b.user.displayName)).toBeVisible();
  await section.getByRole('button', { name: 'Разблокировать' }).click();
  await expect(section.getByText('Вы никого не заблокировали')).toBeVisible();
});

test('a chat is pinned, muted and archived from its menu; a new message brings an archived one back', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  const chat = async (u: typeof boris) =>
    (
      await apiCall<{ conversation: { id: string } }>(
        srv.url,
        'POST',
        '/api/conversations/with',
        { userId: u.user.id },
        anna.accessToken,
      )
    ).conversation.id;
  const withBoris = await chat(boris);
  const withVera = await chat(vera);
  const say = (from: typeof boris, conversationId: string, content: string) =>
    apiCall(srv.url, 'POST', '/api/conversations/send', { conversationId, type: 'TEXT', content }, from.accessToken);
  await say(boris, withBoris, 'от Бориса');
  await say(vera, withVera, 'от Веры');

  const { page } = await openSignedIn(anna);
  const tiles = page.getByTestId('chat-tile');
  await expect(tiles.first()).toContainText('Вера');
  const menuOf = async (name: string) => {
    await tiles.filter({ hasText: name }).click({ button: 'right' });
    return page.getByRole('menu', { name: `Действия с чатом: ${name}` });
  };

  // «Закрепить» puts Борис on top though Вера wrote last.
  await (await menuOf('Борис')).getByRole('menuitem', { name: 'Закрепить' }).click();
  await expect(tiles.first()).toContainText('Борис');
  await expect(tiles.first()).toHaveAttribute('data-pinned', 'true');

  // «Без звука» → «Навсегда»: the badge goes grey and no sound or notification is asked for.
  const menu = await menuOf('Вера');
  await expectNoSeriousA11yViolations(page, 'chat menu');
  await menu.getByRole('menuitem', { name: 'Навсегда' }).click();
  await expect(tiles.filter({ hasText: 'Вера' })).toHaveAttribute('data-muted', 'true');
  await say(vera, withVera, 'тихо');
  await expect(tiles.filter({ hasText: 'Вера' }).locator('.chat-badge.muted')).toBeVisible();

  // «В архив»: Борис leaves the list for «Архив»; his next message brings him back.
  await (await menuOf('Борис')).getByRole('menuitem', { name: 'В архив' }).click();
  await expect(tiles.filter({ hasText: 'Борис' })).toHaveCount(0);
  await expect(page.getByTestId('archive-row')).toContainText('1');
  await page.getByTestId('archive-row').click();
  await expect(tiles.filter({ hasText: 'Борис' })).toHaveCount(1);
  await page.getByRole('button', { name: '← Архив' }).click();
  await say(boris, withBoris, 'я вернулся');
  await expect(tiles.filter({ hasText: 'Борис' })).toHaveCount(1);
  await expect(page.getByTestId('archive-row')).toHaveCount(0);

  // «Удалить чат» asks first, then the chat is gone until a new message.
  await (await menuOf('Борис')).getByRole('menuitem', { name: 'Удалить чат' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Удалить чат? Он вернётся с новым сообщением.' });
  await ask.getByRole('button', { name: 'Удалить' }).click();
  await expect(tiles.filter({ hasText: 'Борис' })).toHaveCount(0);
  await say(boris, withBoris, 'снова я');
  await expect(tiles.filter({ hasText: 'Борис' })).toHaveCount(1);

  // «Очистить историю» from «Информация»: gone for Анна only, after the question.
  await tiles.filter({ hasText: 'Вера' }).click();
  await expect(page.getByText('от Веры')).toBeVisible();
  await page.locator('.conv-title').getByRole('button').click();
  await panel(page).getByRole('button', { name: 'Очистить историю' }).click();
  await page
    .getByRole('alertdialog', { name: 'Очистить историю? Сообщения исчезнут только у вас.' })
    .getByRole('button', { name: 'Очистить' })
    .click();
  await expect(page.getByText('от Веры')).toHaveCount(0);
  await expect(page.getByText('Сообщения появятся здесь')).toBeVisible();
  const hers = await apiCall<{ messages: { content: string }[] }>(
    srv.url,
    'GET',
    `/api/conversations/${withVera}/messages`,
    undefined,
    vera.accessToken,
  );
  expect(hers.messages.map((m) => m.content)).toContain('от Веры');
});

test('an invite link joins a fourth person who signs in first and comes back; a revoked one refuses', async ({
  srv,
  createUser,
  openSignedIn,
  newContext,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const gleb = await createUser('Глеб', 'gleb');
  await makeFriends(srv.url, anna, boris);
  await apiCall(
    srv.url,
    'POST',
    '/api/conversations',
    { participantIds: [boris.user.id], title: 'Клуб', isGroup: true },
    anna.accessToken,
  );
  const { page: pa, context } = await openSignedIn(anna);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await tile(pa, 'Клуб').click();
  await pa.locator('.conv-title').getByRole('button', { name: 'Клуб' }).click();
  const invites = panel(pa).getByRole('region', { name: 'Ссылка-приглашение' });
  await invites.getByLabel('Вступлений').selectOption('10');
  await invites.getByRole('button', { name: 'Создать ссылку' }).click();
  const link = invites.getByTestId('invite-link');
  await expect(link).toHaveCount(1);
  await expect(link).toContainText('вступили 0 из 10');
  await link.getByRole('button', { name: 'Копировать' }).click();
  await expect(link.getByRole('button', { name: 'Скопировано' })).toBeVisible();
  const url = (await pa.evaluate(() => navigator.clipboard.readText())).trim();
  expect(url).toMatch(new RegExp(`^${srv.url}/join/[\\w-]{22,}$`));
  await expectNoSeriousA11yViolations(pa, 'invite links');

  // Глеб, signed out, opens the link: he signs in and lands back on it.
  const guest = await newContext();
  const pg = await guest.newPage();
  await pg.goto(url);
  await expect(pg).toHaveURL(/\/auth/);
  await pg.getByLabel('Никнейм').fill(gleb.username);
  await pg.getByLabel('Пароль').fill(gleb.password);
  await pg.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(pg).toHaveURL(url);
  await expect(pg.getByRole('heading', { name: 'Клуб' })).toBeVisible();
  await expect(pg.getByText('2 участника')).toBeVisible();
  await expectNoSeriousA11yViolations(pg, 'join page');
  await pg.getByRole('button', { name: 'Вступить' }).click();
  await expect(pg.locator('.conv-title')).toHaveText('Клуб');
  // A new group shows its history to newcomers («Видна»): he reads it from its creation.
  await expect(pg.getByTestId('system-entry').first()).toContainText('Анна создал(а) группу');
  await expect(pg.getByTestId('system-entry').last()).toContainText('Глеб вступил(а) по ссылке');
  await expect(pa.getByTestId('system-entry').last()).toContainText('Глеб вступил(а) по ссылке');

  // Revoked: the next person is told the link no longer works.
  await link.getByRole('button', { name: 'Отозвать' }).click();
  await expect(link).toHaveCount(0);
  const vera = await createUser('Вера', 'vera');
  const { page: pv } = await openSignedIn(vera, { path: new URL(url).pathname });
  await expect(pv.getByRole('alert')).toHaveText('Ссылка-приглашение больше не действует');
  await expect(pv.getByRole('button', { name: 'Вступить' })).toHaveCount(0);
});
