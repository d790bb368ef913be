// Message actions in real Chromium against the real server, with up to three people in separate browser contexts:
// delete asks and «Отменить» undoes, «Удалить у меня» and «Скрыть у себя» hide for oneself only, forwarding two
// messages to two chats, a pin shown live to every member, message info, a pasted picture with a caption, any emoji
// as a reaction, and a text over 4000 characters kept with the reason.
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { apiCall, createGroup, makeFriends, markRead, sendText } from './users';

const messages = (page: Page) => page.getByTestId('message');
const messageWith = (page: Page, text: string) => messages(page).filter({ hasText: text });
const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');
const tile = (page: Page, conversationId: string) => page.locator(`[data-conversation-id="${conversationId}"]`);

async function open(page: Page, conversationId: string) {
  await tile(page, conversationId).click();
  await expect(page.locator('.conv-title')).toBeVisible();
}

async function menu(page: Page, text: string, item: string) {
  await messageWith(page, text).click({ button: 'right' });
  await page.getByRole('menuitem', { name: item }).click();
}

const group = createGroup;

test('«Удалить» asks; «Отменить» restores; «Удалить у меня» and «Скрыть у себя» hide for oneself only', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  await sendText(srv.url, a, conversationId, 'Первое от Анны');
  await sendText(srv.url, a, conversationId, 'Второе от Анны');
  await sendText(srv.url, b, conversationId, 'Ответ Бориса');
  const A = await openSignedIn(a);
  const B = await openSignedIn(b);
  await open(A.page, conversationId);
  await open(B.page, conversationId);
  // Anna's page runs on a clock the test moves past each five-second undo window.
  await A.page.clock.install();

  // Asked first; «Отменить» within five seconds brings it back and nothing reaches the server.
  await menu(A.page, 'Первое от Анны', 'Удалить');
  const ask = A.page.getByRole('dialog', { name: 'Удалить сообщение?' });
  await expect(ask.getByRole('button', { name: 'Удалить у всех' })).toBeVisible();
  await expectNoSeriousA11yViolations(A.page, 'delete dialog');
  await ask.getByRole('button', { name: 'Удалить у всех' }).click();
  await expect(messageWith(A.page, 'Первое от Анны')).toHaveCount(0);
  await expect(A.page.getByTestId('undo-toast')).toContainText('Сообщение удалено');
  await A.page.getByTestId('undo-toast').getByRole('button', { name: 'Отменить' }).click();
  await expect(messageWith(A.page, 'Первое от Анны')).toBeVisible();
  await A.page.clock.fastForward(5_500);
  await expect(A.page.getByTestId('undo-toast')).toBeHidden();

  // «Удалить у меня»: gone here (and after a reload), still there for Борис.
  await menu(A.page, 'Второе от Анны', 'Удалить');
  await A.page
    .getByRole('dialog', { name: 'Удалить сообщение?' })
    .getByRole('button', { name: 'Удалить у меня' })
    .click();
  await expect(messageWith(A.page, 'Второе от Анны')).toHaveCount(0);
  const hiddenSecond = A.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/messages/hide');
  await A.page.clock.fastForward(5_500);
  await expect(A.page.getByTestId('undo-toast')).toBeHidden();
  expect((await hiddenSecond).ok()).toBe(true);

  // «Скрыть у себя» on Борис's message: no question, hidden for Анна only.
  await messageWith(A.page, 'Ответ Бориса').click({ button: 'right' });
  await expect(A.page.getByRole('menuitem', { name: 'Удалить' })).toHaveCount(0);
  await A.page.getByRole('menuitem', { name: 'Скрыть у себя' }).click();
  await expect(messageWith(A.page, 'Ответ Бориса')).toHaveCount(0);
  await expect(A.page.getByTestId('undo-toast')).toContainText('Сообщение скрыто');
  // The toast goes when the request starts: the reload below waits for its answer, or it could cancel it.
  const hiddenThird = A.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/messages/hide');
  await A.page.clock.fastForward(5_500);
  await expect(A.page.getByTestId('undo-toast')).toBeHidden();
  expect((await hiddenThird).ok()).toBe(true);

  await A.page.reload();
  await expect(messageWith(A.page, 'Первое от Анны')).toBeVisible();
  await expect(messageWith(A.page, 'Второе от Анны')).toHaveCount(0);
  await expect(messageWith(A.page, 'Ответ Бориса')).toHaveCount(0);
  await B.page.reload();
  // The undone delete never reached the server: Борис still has the first message after Анна's later actions did.
  await expect(messageWith(B.page, 'Первое от Анны')).toBeVisible();
  await expect(messageWith(B.page, 'Второе от Анны')).toBeVisible();
  await expect(messageWith(B.page, 'Ответ Бориса')).toBeVisible();
});

test('two selected messages forwarded to two chats show «Переслано · {name}» there', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  const fromBoris = (
    await apiCall<{ conversation: { id: string } }>(
      srv.url,
      'POST',
      '/api/conversations/with',
      { userId: boris.user.id },
      anna.accessToken,
    )
  ).conversation.id;
  const toVera = (
    await apiCall<{ conversation: { id: string } }>(
      srv.url,
      'POST',
      '/api/conversations/with',
      { userId: vera.user.id },
      anna.accessToken,
    )
  ).conversation.id;
  const family = await group(srv.url, anna, [vera], 'Семья');
  await sendText(srv.url, boris, fromBoris, 'Адрес: Лесная, 5');
  await sendText(srv.url, boris, fromBoris, 'Код домофона 42');

  const A = await openSignedIn(anna);
  const V = await openSignedIn(vera);
  await open(A.page, fromBoris);
  await menu(A.page, 'Адрес: Лесная, 5', 'Выбрать');
  await tick(A.page.getByRole('checkbox', { name: /Код домофона 42/ }));
  await expect(A.page.getByText('Выбрано: 2')).toBeVisible();
  await A.page.getByRole('toolbar', { name: 'Выбранные сообщения' }).getByRole('button', { name: 'Переслать' }).click();
  const picker = A.page.getByRole('dialog', { name: 'Переслать сообщения (2)' });
  await picker.getByRole('searchbox', { name: 'Поиск чата' }).fill('Вер');
  await tick(picker.getByRole('checkbox', { name: /Вера/ }));
  await picker.getByRole('searchbox', { name: 'Поиск чата' }).fill('');
  await tick(picker.getByRole('checkbox', { name: /Семья/ }));
  await expectNoSeriousA11yViolations(A.page, 'forward dialog');
  await picker.getByRole('button', { name: 'Переслать (2)' }).click();
  await expect(picker).toHaveCount(0);

  for (const id of [toVera, family]) {
    await open(V.page, id);
    const copy = messageWith(V.page, 'Код домофона 42');
    await expect(copy).toContainText('Переслано · Борис');
    await expect(messageWith(V.page, 'Адрес: Лесная, 5')).toContainText('Переслано · Борис');
    await V.page.goBack();
  }
});

test('a pin shows the bar to every member live and jumps to the message; message info lists who read', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  const id = await group(srv.url, anna, [boris, vera], 'Дача');
  await sendText(srv.url, anna, id, 'Правила дачи: не шуметь после 23');
  for (let i = 1; i <= 30; i++) await sendText(srv.url, boris, id, `Болтовня ${i}`);
  await markRead(srv.url, boris, id);

  const A = await openSignedIn(anna);
  const B = await openSignedIn(boris);
  await open(A.page, id);
  await open(B.page, id);
  await A.page.locator('.msg-scroller').evaluate((el) => el.scrollTo({ top: 0 }));
  await menu(A.page, 'Правила дачи', 'Закрепить');
  for (const page of [A.page, B.page]) {
    await expect(page.getByTestId('pin-bar')).toContainText('Правила дачи: не шуметь после 23');
  }
  // The timeline's entry (the chat tile may show the same words as its preview).
  await expect(
    B.page
      .getByTestId('system-entry')
      .filter({ hasText: 'Анна закрепил(а) сообщение «Правила дачи: не шуметь после 23»' }),
  ).toBeVisible();
  await B.page
    .getByTestId('pin-bar')
    .getByRole('button', { name: /Закреплённое сообщение/ })
    .click();
  await expect(messageWith(B.page, 'Правила дачи')).toBeInViewport();

  // «Информация»: Борис read it (with a time), Вера has not.
  await menu(A.page, 'Правила дачи', 'Информация');
  const info = A.page.getByRole('dialog', { name: 'Информация о сообщении' });
  await expect(info.getByRole('list', { name: 'Прочитали', exact: true })).toContainText('Борис');
  await expect(info.getByRole('list', { name: 'Не прочитали' })).toContainText('Вера');
  await expectNoSeriousA11yViolations(A.page, 'message info');
  await info.getByRole('button', { name: 'Закрыть окно' }).click();

  await A.page.getByTestId('pin-bar').getByRole('button', { name: 'Открепить' }).click();
  await expect(B.page.getByTestId('pin-bar')).toHaveCount(0);
});

test('a pasted picture goes with a caption; any emoji is a reaction; 4,200 characters are kept with the reason', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  await sendText(srv.url, b, conversationId, 'Смотри, что нашёл');
  const A = await openSignedIn(a);
  const B = await openSignedIn(b);
  await open(A.page, conversationId);
  await open(B.page, conversationId);

  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3b6cf0' } })
    .png()
    .toBuffer();
  await input(A.page).focus();
  await A.page.evaluate(
    (bytes) => {
      const file = new File([new Uint8Array(bytes)], 'screenshot.png', { type: 'image/png' });
      const data = new DataTransfer();
      data.items.add(file);
      document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    },
    [...png],
  );
  const preview = A.page.getByRole('dialog', { name: 'Отправить изображение' });
  await expect(preview.getByRole('img', { name: 'screenshot.png' })).toBeVisible();
  await preview.getByRole('textbox', { name: 'Подпись' }).fill('Закат с балкона');
  await expectNoSeriousA11yViolations(A.page, 'send preview');
  await preview.getByRole('button', { name: 'Отправить' }).click();
  const sent = messageWith(B.page, 'Закат с балкона');
  await expect(sent.locator('img')).toBeVisible();

  // «Другие реакции»: the picker, searched in Russian, gives a reaction outside the quick six.
  await messageWith(A.page, 'Смотри, что нашёл').click({ button: 'right' });
  await A.page.getByRole('menuitem', { name: 'Другие реакции' }).click();
  const picker = A.page.getByRole('dialog', { name: 'Реакция' });
  await picker.getByRole('searchbox', { name: 'Поиск эмодзи' }).fill('огонь');
  await picker.getByRole('gridcell', { name: /огонь/i }).first().click();
  await expect(
    messageWith(B.page, 'Смотри, что нашёл').getByTestId('reaction').and(B.page.locator('[data-emoji="🔥"]')),
  ).toBeVisible();

  // The composer's emoji button inserts at the caret.
  await input(A.page).fill('Ура!');
  await input(A.page).press('Home');
  await A.page.getByRole('button', { name: 'Эмодзи' }).click();
  await A.page.getByRole('dialog', { name: 'Эмодзи' }).getByRole('searchbox').fill('огонь');
  await A.page.getByRole('dialog', { name: 'Эмодзи' }).getByRole('gridcell', { name: /огонь/i }).first().click();
  await expect(input(A.page)).toHaveValue('🔥Ура!');

  // 4,200 characters: kept, the reason shown, nothing sent.
  const long = 'а'.repeat(4200);
  await input(A.page).fill(long);
  await expect(A.page.getByTestId('text-counter')).toHaveText('-200');
  await input(A.page).press('Enter');
  await expect(
    A.page.getByRole('alert').filter({ hasText: 'Сообщение длиннее 4000 символов — сократите его' }),
  ).toBeVisible();
  await expect(input(A.page)).toHaveValue(long);
  // Nothing left: a short message sent next is the next one Борис gets.
  await input(A.page).fill('После длинного');
  await input(A.page).press('Enter');
  await expect(messages(B.page).last()).toContainText('После длинного');
  await expect(messages(B.page).filter({ hasText: 'аааааааааа' })).toHaveCount(0);
});

test('«@» in a group suggests members; the mention is highlighted and the muted chat shows «@» until read', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  const id = await group(srv.url, anna, [boris, vera], 'Поход');
  await apiCall(srv.url, 'PATCH', `/api/conversations/${id}/settings`, { mutedUntil: 'forever' }, boris.accessToken);

  const A = await openSignedIn(anna);
  const B = await openSignedIn(boris);
  await open(A.page, id);
  await input(A.page).pressSequentially('Кто идёт? @Бо');
  const list = A.page.getByRole('listbox', { name: 'Упомянуть участника' });
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option', { name: /Борис/ })).toHaveAttribute('aria-selected', 'true');
  await input(A.page).press('Enter');
  await expect(input(A.page)).toHaveValue('Кто идёт? @Борис ');
  await expect(list).toHaveCount(0);
  await input(A.page).pressSequentially('берёт палатку');
  await input(A.page).press('Enter');

  // Борис muted the group: still the «@» on its tile, and his own mention stands out in the message.
  await expect(tile(B.page, id).getByTestId('chat-tile-mention')).toBeVisible();
  await open(B.page, id);
  await expect(messageWith(B.page, 'берёт палатку').locator('.msg-mention.me')).toHaveText('@Борис');
  await B.page.goBack();
  await expect(tile(B.page, id).getByTestId('chat-tile-mention')).toHaveCount(0);

  // The owner may call everyone: «все» («Упомянуть всех») comes first, and choosing it writes `@все `.
  await input(A.page).pressSequentially('Сбор в девять @вс');
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option').first()).toContainText('Упомянуть всех');
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await input(A.page).press('Enter');
  await expect(input(A.page)).toHaveValue('Сбор в девять @все ');
});

test('«Переслать» offers «Избранное» and a group’s member with no chat yet; forwarding there opens the new chat', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  // Борис and Вера are no friends and have never written to each other: they share only Анна's group.
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  await group(srv.url, anna, [boris, vera], 'Дача');
  const withAnna = (
    await apiCall<{ conversation: { id: string } }>(
      srv.url,
      'POST',
      '/api/conversations/with',
      { userId: anna.user.id },
      boris.accessToken,
    )
  ).conversation.id;
  await sendText(srv.url, anna, withAnna, 'Электричка в 9:40');

  const B = await openSignedIn(boris);
  const V = await openSignedIn(vera);
  await open(B.page, withAnna);
  await menu(B.page, 'Электричка в 9:40', 'Переслать');
  const picker = B.page.getByRole('dialog', { name: 'Переслать сообщение' });
  await expect(picker.getByRole('list', { name: 'Чаты' }).getByRole('checkbox', { name: 'Избранное' })).toBeVisible();
  const people = picker.getByRole('list', { name: 'Люди' });
  // Анна has a chat already: she is offered as that chat, not twice.
  await expect(people.getByRole('checkbox', { name: /Анна/ })).toHaveCount(0);
  await picker.getByRole('searchbox', { name: 'Поиск чата' }).fill('Вер');
  await tick(people.getByRole('checkbox', { name: /Вера/ }));
  await picker.getByRole('button', { name: 'Переслать' }).click();
  await expect(picker).toHaveCount(0);

  // The direct chat with Вера was made and opened, with the copy in it.
  await expect(B.page.locator('.conv-title')).toContainText('Вера');
  await expect(messageWith(B.page, 'Электричка в 9:40')).toContainText('Переслано · Анна');
  await expect(B.page).toHaveURL(/\/c\/[^/]+$/);
  const made = new URL(B.page.url()).pathname.split('/').pop() ?? '';
  await open(V.page, made);
  await expect(messageWith(V.page, 'Электричка в 9:40')).toContainText('Переслано · Анна');
});
