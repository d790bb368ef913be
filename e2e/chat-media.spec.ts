// «Медиа», «Файлы», «Ссылки», «Голосовые» in a chat's «Информация» (docs/behaviour.md §10.46) in real Chromium
// against the real server: a photo, a file and a voice message seeded through the API and a link written in the
// composer; each tab lists its message; a photo opens in the lightbox; a file's row shows its message in the chat.
// axe checks the tabs in both themes.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, markRead, sendImages, sendText, uploadFile } from './users';

const input = (page: Page) => page.getByPlaceholder('Напишите сообщение...');
const panel = (page: Page) => page.getByRole('complementary', { name: 'Информация' });
const voiceFile = fs.readFileSync(path.resolve('tests/fixtures/voice-2s.webm'));

test('a chat’s photos, files, links and voice messages in «Информация»', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3b6cf0' } })
    .png()
    .toBuffer();
  await sendImages(srv.url, a, conversationId, [{ bytes: png, name: 'закат.png' }]);
  const doc = await uploadFile(srv.url, b, Buffer.from('спальник, котелок, фонарик'), 'список.txt', 'text/plain');
  const file = await apiCall<{ message: { id: string } }>(
    srv.url,
    'POST',
    '/api/conversations/send',
    { conversationId, type: 'FILE', content: '', attachments: [{ url: doc.url, type: 'FILE' }] },
    b.accessToken,
  );
  const recording = await uploadFile(srv.url, b, voiceFile, 'voice.webm', 'audio/webm');
  await apiCall(
    srv.url,
    'POST',
    '/api/conversations/send',
    {
      conversationId,
      type: 'VOICE',
      content: '',
      attachments: [{ url: recording.url, type: 'AUDIO' }],
      voice: { durationMs: 2000, waveform: Array.from({ length: 40 }, (_, i) => (i * 13) % 100) },
    },
    b.accessToken,
  );
  // Enough after the file that it is off screen when the chat opens at the newest message.
  for (let i = 0; i < 40; i++) await sendText(srv.url, a, conversationId, `сообщение ${i}`);
  // Read: the chat opens at its newest message, not at Борис's unread file.
  await markRead(srv.url, a, conversationId);

  const A = await openSignedIn(a);
  await A.page.locator(`[data-conversation-id="${conversationId}"]`).click();
  await input(A.page).fill('маршрут тут: https://example.org/route');
  await input(A.page).press('Enter');
  await expect(A.page.getByTestId('message').filter({ hasText: 'https://example.org/route' })).toBeVisible();

  await A.page.locator('.conv-title').getByRole('button').first().click();
  const info = panel(A.page);
  const tabs = info.getByRole('tablist', { name: 'Вложения' });
  await expect(tabs.getByRole('tab', { name: 'Медиа' })).toHaveAttribute('aria-selected', 'true');
  const photo = info.getByRole('button', { name: /^Фото от .*: закат\.png$/ });
  await expect(photo).toBeVisible();
  await expectNoSeriousA11yViolations(A.page, '«Медиа» in «Информация»');

  await tabs.getByRole('tab', { name: 'Ссылки' }).click();
  await expect(info.getByRole('link', { name: 'https://example.org/route' })).toBeVisible();
  await tabs.getByRole('tab', { name: 'Голосовые' }).click();
  await expect(info.getByRole('button', { name: /Голосовое сообщение 0:02/ })).toBeVisible();
  await tabs.getByRole('tab', { name: 'Файлы' }).click();
  const fileRow = info.getByRole('button', { name: /список\.txt .*показать в чате/ });
  await expect(fileRow).toBeVisible();
  await expectNoSeriousA11yViolations(A.page, '«Файлы» in «Информация»');

  // The photo opens in the conversation's lightbox.
  await tabs.getByRole('tab', { name: 'Медиа' }).click();
  await photo.click();
  const lightbox = A.page.getByTestId('lightbox');
  await expect(lightbox).toBeVisible();
  await expect(lightbox.getByRole('img', { name: 'закат.png' })).toBeVisible();
  await lightbox.getByRole('button', { name: 'Закрыть' }).click();
  await expect(lightbox).toBeHidden();

  // The file's row shows its message in the chat.
  const fileMessage = A.page.locator(`[data-message-id="${file.message.id}"]`);
  await expect(fileMessage).not.toBeInViewport();
  await tabs.getByRole('tab', { name: 'Файлы' }).click();
  await fileRow.click();
  await expect(fileMessage).toBeInViewport();
});
