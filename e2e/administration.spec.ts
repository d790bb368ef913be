// «Администрирование» in real Chromium against a real server of its own (empty, so the first account administers):
// the first user sees the section; registration switched to «По приглашениям» with a code; a newcomer registers with
// the code (prefilled from the link) and one without is refused in Russian; a report on a message reaches the queue
// and the administrator deletes the message for everyone; deactivation signs the person's open page out at once;
// a password-reset link sets a new password once; a member allowed to invite makes a code in Settings «Приглашения»
// that registers a new person; axe on every tab, on the reset page and on «Приглашения».
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, makeFriends, PASSWORD, sendText } from './users';

// Each walk gets a fresh, empty server: the first account registered on it becomes its administrator.
test.use({ privateServerOptions: {} });

const unique = (p: string) => `${p}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Registers through the API with an invite code and signs in. */
async function registerWithCode(base: string, displayName: string, inviteCode: string): Promise<E2EUser> {
  const username = unique('inv');
  await apiCall(base, 'POST', '/api/auth/register', { username, displayName, password: PASSWORD, inviteCode });
  const login = await apiCall(base, 'POST', '/api/auth/login', { username, password: PASSWORD });
  return { username, password: PASSWORD, displayName, ...login };
}

async function directChat(base: string, a: E2EUser, b: E2EUser): Promise<string> {
  await makeFriends(base, a, b);
  const { conversation } = await apiCall<{ conversation: { id: string } }>(
    base,
    'POST',
    '/api/conversations/with',
    { userId: b.user.id },
    a.accessToken,
  );
  return conversation.id;
}

const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Разделы администрирования' }).getByRole('link', { name });

test('the first user administers: invites, a report resolved by deleting the message, deactivation signs out at once, a reset link works once', async ({
  srv,
  openSignedIn,
  newContext,
}) => {
  // Four people's pages and six axe passes in one walk: about 60 s alone, near the default 90 s beside another worker.
  test.slow();
  const admin = await createUser(srv.url, 'Ольга Админ', 'olga');
  const A = await openSignedIn(admin);
  await A.page.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Администрирование' }).click();
  await expect(A.page).toHaveURL(`${srv.url}/admin/users`);
  await expect(A.page.getByRole('heading', { name: 'Администрирование' })).toBeVisible();
  await expect(A.page.getByTestId('admin-user').filter({ hasText: 'Ольга Админ' })).toContainText('Администратор');
  await expectNoSeriousA11yViolations(A.page, 'admin users');

  // «Регистрация»: by invitation, and a code with a note.
  await tab(A.page, 'Регистрация').click();
  await tick(A.page.getByRole('radio', { name: /По приглашениям/ }));
  await A.page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(A.page.getByRole('status').filter({ hasText: 'Сохранено' })).toBeVisible();
  await A.page.getByLabel('Сколько раз').fill('5');
  await A.page.getByLabel('Заметка').fill('Для друзей');
  await A.page.getByRole('button', { name: 'Создать код' }).click();
  const row = A.page.getByTestId('registration-invite').filter({ hasText: 'Для друзей' });
  await expect(row).toContainText('Действует');
  const code = (await row.locator('code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^[A-Za-z0-9_-]{8,}$/);
  await expectNoSeriousA11yViolations(A.page, 'admin registration');

  // Without a code the server refuses in Russian; the screen asks for the code and takes it from the link.
  await expect(
    apiCall(srv.url, 'POST', '/api/auth/register', {
      username: unique('nocode'),
      displayName: 'Без кода',
      password: PASSWORD,
    }),
  ).rejects.toThrow('Регистрация только по приглашениям: введите код приглашения');
  const visitor = await newContext();
  const V = await visitor.newPage();
  await V.goto(`${srv.url}/auth/register`);
  await V.getByLabel('Никнейм').fill(unique('boris'));
  await V.getByLabel('Отображаемое имя').fill('Борис');
  await V.getByLabel('Пароль').fill(PASSWORD);
  await V.getByLabel('Код приглашения').fill('nosuchcode123');
  await V.getByRole('button', { name: 'Создать аккаунт' }).click();
  await expect(V.getByRole('alert')).toHaveText('Код приглашения не найден');

  await V.goto(`${srv.url}/auth/register?invite=${code}`);
  await expect(V.getByLabel('Код приглашения')).toHaveValue(code);
  const borisName = unique('boris');
  await V.getByLabel('Никнейм').fill(borisName);
  await V.getByLabel('Отображаемое имя').fill('Борис');
  await V.getByLabel('Пароль').fill(PASSWORD);
  await V.getByRole('button', { name: 'Создать аккаунт' }).click();
  await expect(V).toHaveURL(`${srv.url}/auth`);
  await V.getByLabel('Пароль').fill(PASSWORD);
  await V.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(V).toHaveURL(`${srv.url}/`);
  // A member has no «Администрирование».
  await expect(
    V.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Администрирование' }),
  ).toHaveCount(0);

  // Борис reports Вера's message; the administrator deletes it for everyone.
  const borisLogin = await apiCall(srv.url, 'POST', '/api/auth/login', { username: borisName, password: PASSWORD });
  const boris: E2EUser = { username: borisName, password: PASSWORD, displayName: 'Борис', ...borisLogin };
  const vera = await registerWithCode(srv.url, 'Вера', code);
  const chat = await directChat(srv.url, vera, boris);
  await sendText(srv.url, vera, chat, 'Купите слона недорого');
  await V.locator(`[data-conversation-id="${chat}"]`).click();
  const reported = V.getByTestId('message').filter({ hasText: 'Купите слона недорого' });
  await reported.click({ button: 'right' });
  await V.getByRole('menuitem', { name: 'Пожаловаться' }).click();
  const dialog = V.getByRole('dialog', { name: 'Пожаловаться на сообщение' });
  await tick(dialog.getByRole('radio', { name: 'Спам' }));
  await dialog.getByLabel('Комментарий (необязательно)').fill('Реклама');
  await expectNoSeriousA11yViolations(V, 'report dialog');
  await dialog.getByRole('button', { name: 'Отправить' }).click();
  await expect(V.getByRole('status').filter({ hasText: 'Жалоба отправлена' })).toBeVisible();

  await tab(A.page, 'Жалобы').click();
  const report = A.page.getByTestId('admin-report');
  await expect(report).toHaveCount(1);
  await expect(report).toContainText('Жалоба на сообщение · Спам');
  await expect(report.getByTestId('reported-message')).toContainText('Купите слона недорого');
  await expect(report).toContainText('Реклама');
  await expectNoSeriousA11yViolations(A.page, 'admin reports');
  await report.getByRole('button', { name: 'Удалить сообщение' }).click();
  const deleteAsk = A.page.getByRole('dialog', { name: 'Удалить сообщение у всех?' });
  await expect(deleteAsk.getByRole('button', { name: 'Удалить' })).toBeVisible();
  await expectNoSeriousA11yViolations(A.page, 'admin reports: «Удалить сообщение у всех?»');
  await deleteAsk.getByRole('button', { name: 'Удалить' }).click();
  await expect(A.page.getByText('Открытых жалоб нет')).toBeVisible();
  await expect(reported).toHaveCount(0);
  await expect(V.getByTestId('report-notice')).toHaveText(
    /Ваша жалоба на сообщение «Купите слона недорого» рассмотрена: сообщение удалено\./,
  );

  // Deactivating Вера signs her open page out at once, and her next sign-in is refused with the server's words.
  const W = await openSignedIn(vera);
  await expect(W.page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 15_000 });
  await tab(A.page, 'Пользователи').click();
  const veraRow = A.page.getByTestId('admin-user').filter({ hasText: 'Вера' });
  await veraRow.getByRole('button', { name: 'Отключить' }).click();
  const deactivateAsk = A.page.getByRole('dialog', { name: 'Отключить аккаунт: Вера?' });
  await expect(deactivateAsk.getByRole('button', { name: 'Отключить' })).toBeVisible();
  await expectNoSeriousA11yViolations(A.page, 'admin users: «Отключить аккаунт»');
  await deactivateAsk.getByRole('button', { name: 'Отключить' }).click();
  await expect(veraRow).toContainText('Отключён');
  await expect(W.page).toHaveURL(`${srv.url}/auth`);
  await expect(W.page.getByRole('alert')).toHaveText('Аккаунт отключён администратором');
  await W.page.getByLabel('Никнейм').fill(vera.username);
  await W.page.getByLabel('Пароль').fill(PASSWORD);
  await W.page.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(W.page.getByRole('alert')).toHaveText('Аккаунт отключён администратором');
  // Борис sees it in their chat's «Информация».
  await V.locator('.conv-title-button').click();
  await expect(V.getByTestId('conversation-info')).toContainText('Аккаунт отключён');

  // «Сервер»: the figures.
  await tab(A.page, 'Сервер').click();
  const stats = A.page.getByTestId('admin-stats');
  await expect(stats).toContainText('Пользователи');
  await expect(stats).toContainText('SQLite');
  await expectNoSeriousA11yViolations(A.page, 'admin server');

  // A password-reset link for Борис: a fresh browser opens it, sets a new password and signs in with it; opened again
  // (now signed in), the link says it no longer works.
  await tab(A.page, 'Пользователи').click();
  await A.page
    .getByTestId('admin-user')
    .filter({ hasText: 'Борис' })
    .getByRole('button', { name: 'Ссылка для сброса пароля' })
    .click();
  const linkDialog = A.page.getByRole('dialog', { name: /Ссылка для сброса пароля/ });
  const resetLink = await linkDialog.getByLabel('Ссылка').inputValue();
  expect(resetLink).toMatch(new RegExp(`^${srv.url}/reset/[A-Za-z0-9_-]{16,}$`));
  await expectNoSeriousA11yViolations(A.page, 'admin users: «Ссылка для сброса пароля»');
  await linkDialog.getByRole('button', { name: 'Закрыть', exact: true }).click();
  const R = await (await newContext()).newPage();
  await R.goto(resetLink);
  await expect(R.getByRole('heading', { name: `Новый пароль · Борис (@${borisName})` })).toBeVisible();
  await expect(R.getByText('Не короче 8 символов')).toBeVisible();
  await expectNoSeriousA11yViolations(R, 'password reset');
  const newPassword = 'новый-пароль-42';
  await R.getByLabel('Новый пароль', { exact: true }).fill(newPassword);
  await R.getByLabel('Новый пароль ещё раз').fill('другой-пароль-42');
  await R.getByRole('button', { name: 'Сохранить пароль' }).click();
  await expect(R.getByRole('alert')).toHaveText('Пароли не совпадают');
  await R.getByLabel('Новый пароль ещё раз').fill(newPassword);
  await R.getByRole('button', { name: 'Сохранить пароль' }).click();
  await expect(R.getByRole('status')).toHaveText('Пароль изменён. Войдите с новым паролем.');
  // Every sign-in of Борис ended: his open page returns to the sign-in screen.
  await expect(V).toHaveURL(`${srv.url}/auth`);
  await expectNoSeriousA11yViolations(R, 'password reset done');
  await R.getByRole('link', { name: 'Войти' }).click();
  await expect(R).toHaveURL(`${srv.url}/auth`);
  await R.getByLabel('Никнейм').fill(borisName);
  await R.getByLabel('Пароль').fill(newPassword);
  await R.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(R).toHaveURL(`${srv.url}/`);
  await R.goto(resetLink);
  await expect(R.getByRole('alert')).toHaveText('Ссылка для сброса пароля недействительна или устарела');
  await expect(R.getByRole('link', { name: 'Войти' })).toBeVisible();
  await expectNoSeriousA11yViolations(R, 'password reset used');
});

test('a member makes an invite code in Settings once the administrator lets members invite, and a new person registers with it', async ({
  srv,
  openSignedIn,
  newContext,
}) => {
  const admin = await createUser(srv.url, 'Ольга Админ', 'olga');
  const member = await createUser(srv.url, 'Пётр Участник', 'petr');
  const M = await openSignedIn(member);
  await M.page.goto(`${srv.url}/settings`);
  await expect(M.page.getByRole('heading', { name: 'Устройства' })).toBeVisible();
  await expect(M.page.getByRole('heading', { name: 'Приглашения' })).toHaveCount(0);

  const A = await openSignedIn(admin);
  await A.page.goto(`${srv.url}/admin/registration`);
  await tick(A.page.getByRole('radio', { name: /По приглашениям/ }));
  await tick(A.page.getByLabel('Участники могут приглашать'));
  await A.page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(A.page.getByRole('status').filter({ hasText: 'Сохранено' })).toBeVisible();

  await M.page.reload();
  const section = M.page.getByRole('region', { name: 'Приглашения' });
  await expect(section).toBeVisible();
  await expect(section).toContainText('Кодов пока нет');
  await section.getByLabel('Заметка').fill('Для соседа');
  await section.getByRole('button', { name: 'Создать код' }).click();
  const row = section.getByTestId('registration-invite').filter({ hasText: 'Для соседа' });
  await expect(row).toContainText('Действует');
  const code = (await row.locator('code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^[A-Za-z0-9_-]{8,}$/);
  await expectNoSeriousA11yViolations(M.page, 'settings invites');

  const visitor = await newContext();
  const V = await visitor.newPage();
  await V.goto(`${srv.url}/auth/register?invite=${code}`);
  await expect(V.getByLabel('Код приглашения')).toHaveValue(code);
  await V.getByLabel('Никнейм').fill(unique('vera'));
  await V.getByLabel('Отображаемое имя').fill('Вера');
  await V.getByLabel('Пароль').fill(PASSWORD);
  await V.getByRole('button', { name: 'Создать аккаунт' }).click();
  await expect(V).toHaveURL(`${srv.url}/auth`);

  // The member's list shows the use; the administrator sees the code with its maker.
  await M.page.reload();
  await expect(section.getByTestId('registration-invite').filter({ hasText: 'Для соседа' })).toContainText('1');
  await A.page.reload();
  await expect(A.page.getByTestId('registration-invite').filter({ hasText: 'Для соседа' })).toContainText(
    'Пётр Участник',
  );
});
