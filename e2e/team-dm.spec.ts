// Writing to a group co-member who is not a friend, in real Chromium against the real server (docs/behaviour.md
// §10.26): Борис clicks Вера's name in the group's timeline, her card offers «Написать» and «Добавить в друзья»,
// «Написать» opens their direct chat and Вера receives what he writes; Вера answers from «Информация» (a member row's
// «Написать»); Глеб chooses «Только друзья» in Settings, and his card says so in Russian. Axe on the card and on
// Settings in both themes.
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { createGroup, makeFriends, sendText } from './users';

const tile = (page: Page, title: string) => page.getByTestId('chat-tile').filter({ hasText: title });
const card = (page: Page) => page.getByRole('dialog', { name: 'Участник' });
const panel = (page: Page) => page.getByRole('complementary', { name: 'Информация' });

async function write(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Сообщение' }).fill(text);
  await page.getByRole('button', { name: 'Отправить' }).click();
}

test('co-members who are not friends write to each other from the card and from «Информация»', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  const gleb = await createUser('Глеб', 'gleb');
  for (const u of [boris, vera, gleb]) await makeFriends(srv.url, anna, u);
  const group = await createGroup(srv.url, anna, [boris, vera, gleb], 'Отдел');
  await sendText(srv.url, vera, group, 'Всем привет');
  await sendText(srv.url, gleb, group, 'И от меня');

  // Глеб chooses «Только друзья» in Settings.
  const { page: pg } = await openSignedIn(gleb, { path: '/settings' });
  const privacy = pg.getByRole('combobox', { name: 'Кто может мне писать' });
  await expect(privacy).toHaveValue('groups');
  await privacy.selectOption({ label: 'Только друзья' });
  await pg.getByRole('button', { name: 'Сохранить' }).click();
  await expect(pg.getByRole('status').filter({ hasText: 'Сохранено' })).toBeVisible();
  await expectNoSeriousA11yViolations(pg, 'settings with «Кто может мне писать»');
  await pg.close();

  const { page: pb } = await openSignedIn(boris);
  const { page: pv } = await openSignedIn(vera);

  // Борис opens the group and Вера's card from her name above her message.
  await tile(pb, 'Отдел').click();
  await pb.getByTestId('message').filter({ hasText: 'Всем привет' }).getByRole('button', { name: 'Вера' }).click();
  await expect(card(pb)).toBeVisible();
  await expect(card(pb)).toContainText(`@${vera.username}`);
  await expect(card(pb).getByRole('button', { name: 'Добавить в друзья' })).toBeVisible();
  await expectNoSeriousA11yViolations(pb, 'member card');

  // «Написать»: their direct chat opens; what he writes reaches her.
  await card(pb).getByRole('button', { name: 'Написать' }).click();
  await expect(card(pb)).toHaveCount(0);
  await expect(pb.locator('.conv-title')).toHaveText('Вера');
  await write(pb, 'Вера, есть минутка?');
  await expect(tile(pv, 'Борис')).toBeVisible();
  await tile(pv, 'Борис').click();
  await expect(pv.getByTestId('message').filter({ hasText: 'Вера, есть минутка?' })).toBeVisible();

  // Вера answers through the group's «Информация»: «Написать» on Борис's row opens the same chat.
  await tile(pv, 'Отдел').click();
  await pv.locator('.conv-title').getByRole('button', { name: 'Отдел' }).click();
  await panel(pv).getByRole('button', { name: 'Написать: Борис' }).click();
  await expect(pv.locator('.conv-title')).toHaveText('Борис');
  await write(pv, 'Да, конечно');
  await expect(pb.getByTestId('message').filter({ hasText: 'Да, конечно' })).toBeVisible();

  // Глеб takes messages from friends only: his card keeps «Написать» and says why it cannot.
  await tile(pb, 'Отдел').click();
  await pb.getByTestId('message').filter({ hasText: 'И от меня' }).getByRole('button', { name: 'Глеб' }).click();
  await card(pb).getByRole('button', { name: 'Написать' }).click();
  await expect(card(pb).getByRole('alert')).toHaveText('Пользователь принимает сообщения только от друзей');
  await expectNoSeriousA11yViolations(pb, 'member card with a refusal');
  await card(pb).getByRole('button', { name: 'Добавить в друзья' }).click();
  await expect(card(pb)).toContainText('Заявка отправлена');
  await card(pb).getByRole('button', { name: 'Закрыть окно' }).click();
  await expect(card(pb)).toHaveCount(0);
});
