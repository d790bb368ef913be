// A lazily loaded page or dialog whose chunk cannot be fetched (src/ui/shared/lazy-view.tsx), in real Chromium against the
// real server: the chunk's request is aborted, «Не удалось загрузить раздел» shows with «Повторить» and the rest
// of the app keeps working; once the network lets the chunk through, «Повторить» fetches it and shows the view.
import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';

/** Aborts every request for the built chunk whose name starts with `name` (e.g. `ContactsPage-<hash>.js`). */
async function blockChunk(page: Page, name: string): Promise<{ blocked: () => number; unblock: () => Promise<void> }> {
  const pattern = new RegExp(`/assets/${name}-[^/]+\\.js$`);
  let blocked = 0;
  const handler = (route: Route) => {
    blocked += 1;
    return route.abort('internetdisconnected');
  };
  await page.route(pattern, handler);
  return { blocked: () => blocked, unblock: () => page.unroute(pattern, handler) };
}

test.describe('lazy chunks that fail to load', () => {
  test("the contacts page: 'Повторить' after a failed chunk, the page once it loads", async ({
    srv,
    createUser,
    openSignedIn,
  }) => {
    const { page } = await openSignedIn(await createUser('Анна', 'anna'));
    await expect(page.getByRole('log', { name: 'Сообщения' }).or(page.getByText('Выберите чат'))).toBeVisible();
    const chunk = await blockChunk(page, 'ContactsPage');

    await page.getByRole('link', { name: 'Контакты' }).click();
    await expect(page).toHaveURL(`${srv.url}/contacts`);
    await expect(page.getByRole('alert').filter({ hasText: 'Не удалось загрузить раздел' })).toBeVisible();
    const retry = page.getByRole('button', { name: 'Повторить' });
    await expect(retry).toBeVisible();
    expect(chunk.blocked()).toBeGreaterThan(0);

    // Still offline: the retry asks again and fails again.
    const before = chunk.blocked();
    await retry.click();
    await expect.poll(chunk.blocked).toBeGreaterThan(before);
    await expect(retry).toBeVisible();

    await chunk.unblock();
    await retry.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Контакты' })).toBeVisible();
    await expect(page.getByText('Не удалось загрузить раздел')).toHaveCount(0);
  });

  test("a dialog: the group dialog's chunk fails, 'Повторить' opens it", async ({ createUser, openSignedIn }) => {
    const { page } = await openSignedIn(await createUser('Борис', 'boris'));
    const chunk = await blockChunk(page, 'GroupDialog');
    await page.getByRole('button', { name: 'Новая беседа' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Не удалось загрузить раздел' })).toBeVisible();
    expect(chunk.blocked()).toBeGreaterThan(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await chunk.unblock();
    await page.getByRole('button', { name: 'Повторить' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.getByText('Не удалось загрузить раздел')).toHaveCount(0);
  });
});
