// A status of one's own in the browser (docs/behaviour.md §10.44): set in Settings through «Статус», seen by the
// friend in their direct chat's header apart from presence, and gone from it when the server's clock reaches its
// time (the spec moves the server's clock; the pages' run on as they are).
import { manualClock } from '../tests/server/manual-clock';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';

const clock = manualClock();
// Tokens that outlive the half hour the clock is moved by.
test.use({ privateServerOptions: { accessTokenTtlSec: 7 * 24 * 3600, clock } });

test('a status set in Settings shows in the friend’s chat header and clears at its time', async ({
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  const A = await openSignedIn(a, { path: '/settings' });
  const B = await openSignedIn(b);
  await B.page.locator(`[data-conversation-id="${conversationId}"]`).click();
  const header = B.page.getByTestId('conversation-custom-status');
  await expect(B.page.getByTestId('conversation-status')).toBeVisible();
  await expect(header).toHaveCount(0);

  await expect(A.page.getByTestId('own-custom-status')).toHaveText('Не задан');
  await A.page.getByRole('button', { name: 'Изменить статус' }).click();
  const dialog = A.page.getByRole('dialog', { name: 'Статус' });
  await dialog.getByRole('button', { name: '🌴' }).click();
  await dialog.getByLabel('Что у вас').fill('В отпуске');
  await dialog.getByLabel('Сбросить через').selectOption({ label: '30 минут' });
  await expectNoSeriousA11yViolations(A.page, '«Статус»');
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(dialog).toBeHidden();
  await expect(A.page.getByTestId('own-custom-status')).toContainText('🌴 В отпуске');

  // Live in the friend's open chat, under the name and apart from presence.
  await expect(header).toHaveText('🌴 В отпуске');
  await expect(B.page.getByTestId('conversation-status')).not.toContainText('В отпуске');

  clock.advance(30 * 60_000 + 1_000);
  await expect(header).toHaveCount(0, { timeout: 10_000 });
  await expect(A.page.getByTestId('own-custom-status')).toHaveText('Не задан');
});
