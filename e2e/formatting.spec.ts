// Formatted text in real Chromium against the real server, two users in two browser contexts: markers typed in the
// composer, a formatting key and the toolbar arrive as formatting (never as HTML), a code block is copied with «Копировать», a
// spoiler stays hidden until clicked, an edit keeps the formatting, and the list shows the plain text; axe checks the
// formatted conversation in both themes.
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';

const messages = (page: Page) => page.getByTestId('message');
const messageWith = (page: Page, text: string) => messages(page).filter({ hasText: text });
const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');

async function openConversation(page: Page, conversationId: string) {
  await page.locator(`[data-conversation-id="${conversationId}"]`).click();
  await expect(input(page)).toBeVisible();
}

test.describe('formatted text', () => {
  test('A types markers and a key; B sees bold, code, a block it copies and a spoiler it reveals; an edit keeps them', async ({
    friends: { a, b, conversationId },
    openSignedIn,
  }) => {
    const A = await openSignedIn(a);
    const B = await openSignedIn(b);
    await B.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openConversation(A.page, conversationId);
    await openConversation(B.page, conversationId);

    await input(A.page).fill('**жирный** и `код` и ||тайна|| <b>не тег</b>');
    await input(A.page).press('Enter');
    const first = messageWith(B.page, 'жирный и');
    await expect(first.locator('strong')).toHaveText('жирный');
    await expect(first.locator('code')).toHaveText('код');
    // Text that looks like HTML stays text.
    await expect(first).toContainText('<b>не тег</b>');
    await expect(first.locator('b')).toHaveCount(0);
    await expect(first).not.toContainText('**');
    // The spoiler's words are not on the page until it is clicked.
    const spoiler = first.getByRole('button', { name: 'Скрытый текст, показать' });
    await expect(spoiler).toBeVisible();
    await expect(first).not.toContainText('тайна');
    await spoiler.press('Enter');
    await expect(first).toContainText('тайна');

    // A code block with its language, typed over several lines (Shift+Enter), and Ctrl+B on a selection.
    await input(A.page).fill('```js\nconst a = 1;\nconsole.log(a);\n```');
    await input(A.page).press('Enter');
    const block = messageWith(B.page, 'console.log(a);');
    await expect(block.locator('pre')).toHaveText('const a = 1;\nconsole.log(a);');
    await expect(block).toContainText('js');
    await block.getByRole('button', { name: 'Копировать' }).click();
    // The pane's selection actor writes it and says so, as for a message's «Копировать».
    await expect(B.page.getByRole('status').filter({ hasText: 'Скопировано' })).toBeVisible();
    expect(await B.page.evaluate(() => navigator.clipboard.readText())).toBe('const a = 1;\nconsole.log(a);');

    await input(A.page).fill('очень важно');
    await input(A.page).evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(6, 11));
    await input(A.page).press('Control+b');
    await expect(input(A.page)).toHaveValue('очень **важно**');
    await input(A.page).press('Enter');
    await expect(messageWith(B.page, 'очень важно').locator('strong')).toHaveText('важно');

    // The toolbar over a selection does the same.
    await input(A.page).fill('ещё слово');
    await input(A.page).press('End');
    for (let i = 0; i < 5; i++) await input(A.page).press('Shift+ArrowLeft');
    const bar = A.page.getByRole('toolbar', { name: 'Форматирование' });
    await expect(bar).toBeVisible();
    await expectNoSeriousA11yViolations(A.page, 'the formatting toolbar');
    await bar.getByRole('button', { name: 'Зачёркнутый' }).click();
    await expect(input(A.page)).toHaveValue('ещё ~~слово~~');
    await input(A.page).press('Enter');
    await expect(messageWith(B.page, 'ещё слово').locator('s')).toHaveText('слово');

    // The list shows the plain text, without markers.
    await expect(B.page.locator(`[data-conversation-id="${conversationId}"]`)).toContainText('ещё слово');
    await expectNoSeriousA11yViolations(B.page, 'formatted messages');

    // Editing puts the markers back in the composer; the saved edit keeps the formatting.
    await messageWith(A.page, 'жирный и').click({ button: 'right' });
    await A.page.getByRole('menuitem', { name: 'Изменить' }).click();
    await expect(input(A.page)).toHaveValue('**жирный** и `код` и ||тайна|| <b>не тег</b>');
    await input(A.page).fill('**жирный** и `код` и __курсив__');
    await input(A.page).press('Enter');
    const edited = messageWith(B.page, 'курсив');
    await expect(edited.getByTestId('edited-mark')).toBeVisible();
    await expect(edited.locator('strong')).toHaveText('жирный');
    await expect(edited.locator('code')).toHaveText('код');
    await expect(edited.locator('em')).toHaveText('курсив');
  });
});
