// Polls («Опрос») in real Chromium against the real server, three people in separate browser contexts: Анна makes a
// poll from «Прикрепить» → «Опрос» in a group; Борис and Вера vote, and every page shows the counts live; Борис takes
// his vote back; «Кто голосовал» names the voters; Анна closes it and the options stop taking votes. The chat list
// says «📊 Опрос: …». Axe on the dialog and the card in both themes.
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { createGroup, makeFriends } from './users';

const tile = (page: Page, title: string) => page.getByTestId('chat-tile').filter({ hasText: title });
const card = (page: Page) => page.getByTestId('poll');
const total = (page: Page) => card(page).locator('.poll-total');

test('three people vote live in a poll; a vote taken back, voters listed, the poll closed', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  await createGroup(srv.url, anna, [boris, vera], 'Пятница');

  const { page: pa } = await openSignedIn(anna);
  const { page: pb } = await openSignedIn(boris);
  const { page: pv } = await openSignedIn(vera);
  for (const p of [pa, pb, pv]) await tile(p, 'Пятница').click();

  // Анна writes the poll.
  await pa.getByRole('button', { name: 'Прикрепить' }).click();
  await pa.getByRole('menuitem', { name: 'Опрос' }).click();
  const dialog = pa.getByRole('dialog', { name: 'Создать опрос' });
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Напишите вопрос');
  await dialog.getByRole('textbox', { name: 'Вопрос' }).fill('Куда идём?');
  await dialog.getByRole('textbox', { name: 'Вариант 1', exact: true }).fill('Кино');
  await dialog.getByRole('textbox', { name: 'Вариант 2', exact: true }).fill('Театр');
  await dialog.getByRole('button', { name: 'Добавить вариант' }).click();
  await dialog.getByRole('textbox', { name: 'Вариант 3', exact: true }).fill('Домой');
  await expectNoSeriousA11yViolations(pa, 'the poll dialog');
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(dialog).toHaveCount(0);
  for (const p of [pa, pb, pv]) await expect(card(p)).toContainText('Куда идём?');
  await expect(tile(pb, 'Пятница')).toContainText('📊 Опрос: Куда идём?');

  // Борис and Вера vote: everyone sees the counts as they come.
  await card(pb).getByRole('button', { name: 'Кино' }).click();
  await card(pv).getByRole('button', { name: 'Кино' }).click();
  for (const p of [pa, pb, pv]) await expect(total(p)).toHaveText('2 голоса');
  await expect(card(pa).getByRole('meter', { name: 'Кино: 100%' })).toBeVisible();
  await expect(card(pb)).toContainText('✓ ваш выбор');
  await expectNoSeriousA11yViolations(pb, 'a poll voted in');

  // Борис changes his mind: his vote is gone everywhere, and he votes again.
  await card(pb).getByRole('button', { name: 'Отменить голос' }).click();
  await expect(total(pa)).toHaveText('1 голос');
  await card(pb).getByRole('button', { name: 'Театр' }).click();
  await expect(card(pv).getByRole('meter', { name: 'Театр: 50%' })).toBeVisible();
  await card(pa).getByRole('button', { name: 'Кто голосовал' }).click();
  await expect(card(pa).locator('.poll-voters')).toHaveText(['Вера', 'Борис']);

  // Анна closes it: nobody can vote any more.
  await card(pa).getByRole('button', { name: 'Завершить опрос' }).click();
  for (const p of [pa, pb, pv]) await expect(card(p)).toContainText('завершён');
  await expect(card(pa).getByRole('button', { name: 'Домой' })).toHaveCount(0);
  await expect(card(pv).getByRole('button', { name: 'Отменить голос' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(pa, 'a closed poll');
});
