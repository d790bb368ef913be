// Threads («Обсуждения») in real Chromium against the real server, three people in separate browser contexts: one
// starts a thread from a message's menu and the others answer in it; the root shows «3 ответа» live; a picture goes
// into the panel through the send preview and opens in the lightbox; a reply quotes another from its menu; a
// follower sees the unread reply on «Обсуждения» at the top of the list and opens the thread from there; a search
// result opens the thread at the reply; the owner turns threads off in «Информация» and the action is gone. Axe on
// the panel and the entry.
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { expectApart, expectPlaced } from './layout';
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
  const input = threadPanel(pa).getByRole('textbox', { name: 'Сообщение' });
  await input.fill('Могу я');
  await input.press('Enter');
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
  // The panel's composer fits the panel from a 1280-px laptop to a phone (the microphone last in its row), and the
  // root's repliers are a stack of same-size faces, each over a third of the next, clear of «3 ответа»; both themes.
  const summary = messageWith(pa, 'Кто берёт задачу?').getByTestId('thread-summary');
  for (const colorScheme of ['dark', 'light'] as const) {
    await pa.emulateMedia({ colorScheme });
    for (const [width, height] of [
      [1366, 768],
      [1366, 800],
      [1280, 720],
      [390, 844],
    ] as const) {
      await pa.setViewportSize({ width, height });
      const at = `at ${width}×${height}, ${colorScheme}`;
      for (const name of ['Прикрепить', 'Эмодзи', 'Записать голосовое сообщение'])
        await expectPlaced(
          threadPanel(pa).getByRole('button', { name, exact: true }),
          threadPanel(pa),
          `«${name}» ${at}`,
        );
      await expectPlaced(input, threadPanel(pa), `the thread's text field ${at}`);
      if (width < 769) continue; // the panel covers the conversation on a phone
      const faces = summary.locator('.msg-thread-faces > .chat-avatar');
      await expect(faces).toHaveCount(3);
      await expectApart(faces, summary.locator('.msg-thread-count'), `the repliers and «3 ответа» ${at}`);
      const stack = await faces.evaluateAll((els) =>
        els
          .map((e) => e.getBoundingClientRect())
          .map((r) => [Math.round(r.left), Math.round(r.width), Math.round(r.height)]),
      );
      const [first] = stack;
      expect(stack, `the repliers' stack ${at}`).toEqual(stack.map((_, i) => [first[0] + i * 14, 20, 20]));
      for (const i of [0, 1, 2]) await expectPlaced(faces.nth(i), summary, `replier ${i + 1} ${at}`);
    }
  }
  await pa.setViewportSize({ width: 1280, height: 720 });

  // The replies are not in the timeline.
  await expect(messageWith(pa, 'Помогу')).toHaveCount(0);

  // A picture through the send preview, with its caption; it opens in the lightbox.
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3b6cf0' } })
    .png()
    .toBuffer();
  await threadPanel(pa)
    .getByTestId('attach-input')
    .setInputFiles({ name: 'план.png', mimeType: 'image/png', buffer: png });
  const preview = pa.getByRole('dialog', { name: 'Отправить изображение' });
  await preview.getByRole('textbox', { name: 'Подпись' }).fill('Схема');
  await preview.getByRole('button', { name: 'Отправить' }).click();
  await expect(threadPanel(pa).getByTestId('thread-reply')).toHaveCount(4);
  await threadPanel(pa).getByRole('button', { name: 'Открыть изображение план.png' }).click();
  const lightbox = pa.getByRole('dialog').filter({ has: pa.getByRole('button', { name: 'Закрыть' }) });
  await expect(lightbox.locator('img')).toBeVisible();
  await lightbox.getByRole('button', { name: 'Закрыть' }).click();
  await expect(threadPanel(pa)).toBeVisible();

  // A quote of Вера's reply from its menu; Борис (the root's author and a writer) follows the thread: Анна's reply
  // is unread on «Обсуждения».
  await threadPanel(pa)
    .getByTestId('thread-reply')
    .filter({ hasText: 'Помогу' })
    .getByRole('button', { name: 'Действия с сообщением' })
    .click();
  await pa.getByRole('menuitem', { name: 'Цитировать' }).click();
  await expect(threadPanel(pa).getByTestId('reply-banner')).toContainText('Помогу');
  // «@» offers the group's members in the panel's composer too.
  await input.fill('Начинаю завтра, @Ве');
  await threadPanel(pa)
    .getByRole('listbox', { name: 'Упомянуть участника' })
    .getByRole('option', { name: /Вера/ })
    .click();
  await expect(input).toHaveValue(/^Начинаю завтра, @Вера/);
  await threadPanel(pa).getByRole('button', { name: 'Отправить' }).click();
  await expect(threadPanel(pa).getByTestId('thread-reply')).toHaveCount(5);
  await expect(threadPanel(pa).getByTestId('thread-reply').last()).toContainText('Ответ на: Помогу');
  const entry = pb.getByTestId('threads-entry');
  await expect(entry).toContainText('Обсуждения');
  await expect(entry.locator('.threads-entry-count')).toHaveText('2 непрочитанных ответа');
  await entry.click();
  await expectNoSeriousA11yViolations(pb, 'threads entry');
  await pb.getByTestId('followed-thread').click();
  await expect(threadPanel(pb)).toBeVisible();
  await expect(threadPanel(pb).getByTestId('thread-reply')).toHaveCount(5);
  await expect(entry.locator('.threads-entry-count')).toHaveCount(0);
  await threadPanel(pb).getByRole('button', { name: 'Закрыть обсуждение' }).click();
  await expect(threadPanel(pb)).toHaveCount(0);

  // A search result that is a reply opens its thread in the panel, at the reply.
  await pb.getByRole('searchbox', { name: 'Поиск по сообщениям' }).fill('завтра');
  await pb.getByTestId('search-result').filter({ hasText: 'завтра' }).click();
  await expect(threadPanel(pb)).toBeVisible();
  await expect(threadPanel(pb).locator('[aria-current="true"]')).toContainText('Начинаю завтра');
  await threadPanel(pb).getByRole('button', { name: 'Закрыть обсуждение' }).click();

  // The owner turns threads off: the action is gone for everyone.
  await threadPanel(pa).getByRole('button', { name: 'Закрыть обсуждение' }).click();
  await pa.locator('.conv-title').getByRole('button', { name: 'Проект' }).click();
  const info = pa.getByRole('complementary', { name: 'Информация' });
  // The switch shows the server's state (it flips when the answer comes), so click and wait rather than uncheck(),
  // which looks right after the click.
  await info.getByRole('checkbox', { name: /Обсуждения/ }).click();
  await expect(info.getByRole('checkbox', { name: /Обсуждения/ })).not.toBeChecked();
  await messageWith(pb, 'Кто берёт задачу?').click({ button: 'right' });
  await expect(pb.getByRole('menuitem', { name: 'Цитировать' })).toBeVisible();
  await expect(pb.getByRole('menuitem', { name: 'Ответить в обсуждении' })).toHaveCount(0);
});
