// Message search in real Chromium against the real server: B searches «собаку» in the chats list and finds A's
// «Видел твою собаку?» 500 messages back, chooses it with the keyboard and lands on it in the history; no serious
// axe-core violation with the results open.
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { sendText } from './users';

test.describe('message search', () => {
  test('B finds «Видел твою собаку?» by «собаку», chooses it and lands on it 500 messages back', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    test.setTimeout(120_000);
    const target = await sendText(srv.url, a, conversationId, 'Видел твою собаку?');
    for (let i = 1; i <= 500; i++) await sendText(srv.url, i % 2 ? b : a, conversationId, `Сообщение ${i} про погоду`);
    const { page } = await openSignedIn(b);
    await expect(page.locator(`[data-conversation-id="${conversationId}"]`)).toBeVisible();

    // «/» focuses the field from anywhere on the page (Ctrl+K is the quick switcher's).
    await page.keyboard.press('/');
    const field = page.getByRole('searchbox', { name: 'Поиск по сообщениям' });
    await expect(field).toBeFocused();
    await field.pressSequentially('соба');
    const results = page.getByTestId('search-result');
    // The first answer after 501 sends on a loaded CI machine may take longer than the default 5 s.
    await expect(results).toHaveCount(1, { timeout: 15_000 });
    await expect(results.first()).toContainText('Видел твою собаку?');
    await expect(results.first().locator('mark')).toHaveText('собаку');
    await field.fill('собаку');
    await expect(results).toHaveCount(1);
    await expect(results.first()).toContainText('Анна');
    await expectNoSeriousA11yViolations(page, 'search results open');

    await field.press('ArrowDown');
    await expect(results.first()).toHaveAttribute('aria-current', 'true');
    await field.press('Enter');
    const message = page.getByTestId('message').filter({ hasText: 'Видел твою собаку?' });
    await expect(message).toBeInViewport({ timeout: 20_000 });
    await expect(page.locator(`[data-message-id="${target.id}"] .msg-flash`)).toHaveCount(1);

    // Nothing matches: said so; Escape clears and the tiles come back.
    await field.fill('жирафы');
    await expect(page.getByText('Ничего не найдено')).toBeVisible();
    await field.press('Escape');
    await expect(field).toHaveValue('');
    await expect(page.locator(`[data-conversation-id="${conversationId}"]`)).toBeVisible();
  });

  test('search within the open conversation steps between hits with «N из M»', async ({
    srv,
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    const hits = [];
    for (let i = 1; i <= 3; i++) {
      hits.push(await sendText(srv.url, a, conversationId, `Купили мяч номер ${i}`));
      for (let j = 0; j < 30; j++) await sendText(srv.url, b, conversationId, `Заполнитель ${i}.${j}`);
    }
    const { page } = await openSignedIn(b);
    await page.locator(`[data-conversation-id="${conversationId}"]`).click();
    await page.getByRole('button', { name: 'Искать в беседе' }).click();
    const field = page.getByRole('searchbox', { name: 'Поиск в беседе' });
    await expect(field).toBeFocused();
    await field.fill('мячи');
    const count = page.getByTestId('conversation-search-count');
    await expect(count).toHaveText('0 из 3');
    const flashed = (id: string) => page.locator(`[data-message-id="${id}"] .msg-flash`);

    await page.getByRole('button', { name: 'Предыдущее совпадение' }).click();
    await expect(count).toHaveText('1 из 3');
    await expect(flashed(hits[2]!.id)).toHaveCount(1);
    await field.press('Enter');
    await expect(count).toHaveText('2 из 3');
    await expect(flashed(hits[1]!.id)).toHaveCount(1);
    await expect(page.getByTestId('message').filter({ hasText: 'Купили мяч номер 2' })).toBeInViewport();
    await page.getByRole('button', { name: 'Предыдущее совпадение' }).click();
    await expect(count).toHaveText('3 из 3');
    await expect(page.getByTestId('message').filter({ hasText: 'Купили мяч номер 1' })).toBeInViewport();
    await page.getByRole('button', { name: 'Следующее совпадение' }).click();
    await expect(count).toHaveText('2 из 3');
    await expectNoSeriousA11yViolations(page, 'conversation search open');

    await field.fill('жираф');
    await expect(count).toHaveText('Ничего не найдено');
    await page.getByRole('button', { name: 'Закрыть поиск' }).click();
    await expect(page.getByTestId('conversation-search')).toHaveCount(0);
  });
});
