// Threads («Обсуждения») in real Chromium against the real server, three people in separate browser contexts: one
// starts a thread from a message's menu and the others answer in it; the root shows «3 ответа» live; a follower sees
// the unread reply on «Обсуждения» at the top of the list and opens the thread from there; the owner turns threads
// off in «Информация» and the action is gone. Axe on the panel and the entry in both themes.
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, createGroup, makeFriends, sendText } from './users';

const tile = (page: Page, title: string) => page.getByTestId('chat-tile').filter({ hasText: title });
const messageWith = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });
const threadPanel = (page: Page) => page.getByRole('complementary', { name: 'Обсуждение' });

test('three people reply in a thread, a follower sees the unread entry, threads turned off hide the action', async ({
  srv,
  createUser,
  openSignedIn,
}) => {
  const anna = await createUser('Анна', 'anna');
  const boris = await createUser('Борис', 'boris');
  const vera = await createUser('Вера', 'vera');
  await makeFriends(srv.url, anna, boris);
  await makeFriends(srv.url, anna, vera);
  const conversationId = await createGroup(srv.url, anna, [boris, vera], 'Проект');
  const root = await sendText(srv.url, boris, conversationId, 'Кто берёт задачу?');
  const reply = (token: string, content: string) =>
    apiCall(
      srv.url,
      'POST',
      '/api/conversations/send',
      { conversationId, type: 'TEXT', content, threadRootId: root.id },
      token,
    );

  const { page: pa } = await openSignedIn(anna);
  const { page: pb } = await openSignedIn(boris);

  // Анна answers in a thread from the message's menu.
  await tile(pa, 'Проект').click();
  await messageWith(pa, 'Кто берёт задачу?').click({ button: 'right' });
  await pa.getByRole('menuitem', { name: 'Ответить в обсуждении' }).click();
  await expect(threadPanel(pa)).toBeVisible();
  await expect(threadPanel(pa).getByRole('button', { name: 'Следить' })).toBeVisible();
  await threadPanel(pa).getByRole('textbox', { name: 'Ответ в обсуждении' }).fill('Могу я');
  await threadPanel(pa).getByRole('textbox', { name: 'Ответ в обсуждении' }).press('Enter');
  await expect(threadPanel(pa).getByTestId('thread-reply')).toHaveCount(1);
  // Writing in it follows it.
  await expect(threadPanel(pa).getByRole('button', { name: 'Не следить' })).toBeVisible();
  await expectNoSeriousA11yViolations(pa, 'thread panel');

  // Вера and Борис answer too: live in the panel and on the root's «N ответов».
  await reply(vera.accessToken, 'Помогу');
  await reply(boris.accessToken, 'Спасибо, Анна');
  await expect(threadPanel(pa).getByTestId('thread-reply')).toHaveCount(3);
  await expect(threadPanel(pa)).toContainText('3 ответа');
  await expect(
    messageWith(pa, 'Кто берёт задачу?').getByTestId('thread-summary').locator('.msg-thread-count'),
  ).toHaveText('3 ответа');
  // The replies are not in the timeline.
  await expect(messageWith(pa, 'Помогу')).toHaveCount(0);

  // Борис (the root's author and a writer) follows it: Анна's next reply is unread on «Обсуждения».
  await threadPanel(pa).getByRole('textbox', { name: 'Ответ в обсуждении' }).fill('Начинаю завтра');
  await threadPanel(pa).getByRole('button', { name: 'Отправить' }).click();
  await expect(threadPanel(pa).getByTestId('thread-reply')).toHaveCount(4);
  const entry = pb.getByTestId('threads-entry');
  await expect(entry).toContainText('Обсуждения');
  await expect(entry.locator('.threads-entry-count')).toContainText('1');
  await entry.click();
  await expectNoSeriousA11yViolations(pb, 'threads entry');
  await pb.getByTestId('followed-thread').click();
  await expect(threadPanel(pb)).toBeVisible();
  await expect(threadPanel(pb).getByTestId('thread-reply')).toHaveCount(4);
  await expect(entry.locator('.threads-entry-count')).toHaveCount(0);
  await threadPanel(pb).getByRole('button', { name: 'Закрыть обсуждение' }).click();
  await expect(threadPanel(pb)).toHaveCount(0);

  // The owner turns threads off: the action is gone for everyone.
  await threadPanel(pa).getByRole('button', { name: 'Закрыть обсуждение' }).click();
  await pa.locator('.conv-title').getByRole('button', { name: 'Проект' }).click();
  const info = pa.getByRole('complementary', { name: 'Информация' });
  await info.getByRole('checkbox', { name: /Обсуждения/ }).uncheck();
  await expect(info.getByRole('checkbox', { name: /Обсуждения/ })).not.toBeChecked();
  await messageWith(pb, 'Кто берёт задачу?').click({ button: 'right' });
  await expect(pb.getByRole('menuitem', { name: 'Цитировать' })).toBeVisible();
  await expect(pb.getByRole('menuitem', { name: 'Ответить в обсуждении' })).toHaveCount(0);
});
