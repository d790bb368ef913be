// «История для новых участников» in real Chromium against the real server: a new group shows its history to
// newcomers, so a friend the owner adds reads what was written before she came, with nothing unread; the owner
// hides it from «Информация» and everyone sees «… скрыл(а) историю для новых участников» live; the next newcomer
// reads from his joining on. A member who is not an admin is not offered the setting. Axe on it in both themes.
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { apiCall, createGroup, makeFriends, sendText } from './users';

const tile = (page: Page, title: string) => page.getByTestId('chat-tile').filter({ hasText: title });
const panel = (page: Page) => page.getByRole('complementary', { name: 'Информация' });
const setting = (page: Page) => panel(page).getByRole('group', { name: 'История для новых участников' });

test('a newcomer reads the earlier messages while the history is «Видна», and not once it is «Скрыта»', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  const gleb = await createUser('Глеб', 'gleb');
  for (const friend of [boris, vera, gleb]) await makeFriends(srv.url, anna, friend);
  const id = await createGroup(srv.url, anna, [boris], 'Проект');
  await sendText(srv.url, anna, id, 'план на квартал');
  await sendText(srv.url, boris, id, 'бюджет утверждён');

  const { page: pa } = await openSignedIn(anna);
  const { page: pv } = await openSignedIn(vera);

  // Анна opens «Информация»: a new group shows its history to newcomers.
  await tile(pa, 'Проект').click();
  await pa.locator('.conv-title').getByRole('button', { name: 'Проект' }).click();
  await expect(setting(pa).getByRole('radio', { name: /Видна/ })).toBeChecked();
  await expectNoSeriousA11yViolations(pa, 'history setting');

  // She adds Вера, who reads everything written before she came, with nothing unread.
  await panel(pa).getByRole('button', { name: 'Добавить участников' }).click();
  await tick(panel(pa).getByRole('checkbox', { name: /Вера/ }));
  await panel(pa).getByRole('button', { name: 'Добавить', exact: true }).click();
  await expect(panel(pa).locator('.info-subtitle')).toHaveText('3 участника');
  await expect(tile(pv, 'Проект')).toBeVisible();
  await expect(tile(pv, 'Проект').locator('.chat-badge')).toHaveCount(0);
  await tile(pv, 'Проект').click();
  await expect(pv.getByTestId('message').getByText('план на квартал')).toBeVisible();
  await expect(pv.getByTestId('message').getByText('бюджет утверждён')).toBeVisible();
  // A member is not offered the setting.
  await pv.locator('.conv-title').getByRole('button', { name: 'Проект' }).click();
  await expect(panel(pv).getByTestId('member').first()).toBeVisible();
  await expect(setting(pv)).toHaveCount(0);

  // Анна hides it: the entry reaches Вера live.
  await tick(setting(pa).getByRole('radio', { name: /Скрыта/ }));
  await expect(setting(pa).getByRole('radio', { name: /Скрыта/ })).toBeChecked();
  await expect(pa.getByTestId('system-entry').last()).toContainText('Анна скрыл(а) историю для новых участников');
  await expect(pv.getByTestId('system-entry').last()).toContainText('Анна скрыл(а) историю для новых участников');
  // The group's own value now (the choice being saved is gone by the time the entry arrives).
  await expect(setting(pa).getByRole('radio', { name: /Скрыта/ })).toBeChecked();
  await expectNoSeriousA11yViolations(pa, 'history setting, «Скрыта»');

  // Глеб, added now, reads from his joining on.
  await apiCall(
    srv.url,
    'POST',
    '/api/conversations/members/add',
    { conversationId: id, userIds: [gleb.user.id] },
    anna.accessToken,
  );
  const { page: pg } = await openSignedIn(gleb);
  await tile(pg, 'Проект').click();
  await expect(pg.getByTestId('system-entry').last()).toContainText('Анна добавил(а) участника: Глеб');
  await expect(pg.getByText('план на квартал')).toHaveCount(0);
  await expect(pg.getByText('бюджет утверждён')).toHaveCount(0);
});
