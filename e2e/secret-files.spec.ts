// A secret chat's picture, file and voice message end to end in real Chromium (its fake microphone) against the
// real server (docs/secret-chats.md, "Files and voice messages"): Анна sends each, encrypted in her browser; Борис
// sees the picture and opens it in the lightbox (the chat's second picture a step away; Анна's on a phone too), saves
// the file with its name and the very same bytes, and plays the voice message, whose length came inside the
// encrypted message; after a reload he sees the picture again. Then, with the server stopped, nothing under its data
// directory (database, WAL, uploads) nor its log holds the file's bytes, the picture's pixels or any of the names.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../tests/server/harness';
import { expectNoSeriousA11yViolations } from './a11y';
import { tick } from './controls';
import { expect, test } from './fixtures';
import { filesUnder } from './secret-helpers';
import { createUser, type E2EUser, makeFriends, signInContext } from './users';

const PICTURE = 'горы-тайные.png';
const PICTURE_2 = 'озеро-тайное.png';
const FILE = 'тайный-план.txt';
const FILE_TEXT = 'секретный план: встреча у старого моста в 7 утра, пароль «берёза»';

async function open(browser: Browser, srv: TestServer, u: E2EUser): Promise<Page> {
  const context = await browser.newContext({ baseURL: srv.url, permissions: ['microphone'], acceptDownloads: true });
  await signInContext(context, u);
  const page = await context.newPage();
  await page.goto(srv.url);
  return page;
}

test.afterEach(async ({ browser }) => {
  for (const c of browser.contexts()) await c.close().catch(() => {});
});

const sendPreviewed = (page: Page) =>
  page
    .getByRole('dialog', { name: /^Отправить/ })
    .getByRole('button', { name: 'Отправить' })
    .click();

test('a secret chat carries a picture, a file and a voice message, and the server keeps none of them readable', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const logs: string[] = [];
  const srv = await startTestServer(
    { clientDir: path.resolve(process.env.E2E_CLIENT_DIR ?? 'dist'), logLevel: 'debug' },
    { logStream: { write: (line) => void logs.push(line) } },
  );
  try {
    // Noise, so that its pixels (and the PNG's compressed bytes) are nowhere else.
    const noise = Buffer.from(Array.from({ length: 64 * 48 * 3 }, (_, i) => (i * 2654435761) % 251));
    const png = await sharp(noise, { raw: { width: 64, height: 48, channels: 3 } })
      .png()
      .toBuffer();
    const fileBytes = Buffer.from(FILE_TEXT, 'utf8');

    const anna = await createUser(srv.url, 'Анна', 'anna');
    const boris = await createUser(srv.url, 'Борис', 'boris');
    await makeFriends(srv.url, anna, boris);
    const pa = await open(browser, srv, anna);
    const pb = await open(browser, srv, boris);
    // Борис's browser becomes a device by opening the dialog once.
    await pb.getByRole('button', { name: 'Новый секретный чат' }).click();
    const his = pb.getByRole('dialog', { name: 'Новый секретный чат' });
    await expect(his.getByRole('button', { name: 'Создать' })).toBeEnabled();
    await his.getByRole('button', { name: 'Отмена' }).click();

    await pa.getByRole('button', { name: 'Новый секретный чат' }).click();
    const dialog = pa.getByRole('dialog', { name: 'Новый секретный чат' });
    await tick(dialog.getByRole('checkbox', { name: /Борис/ }));
    await dialog.getByRole('button', { name: 'Создать' }).click();
    await expect(pa).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
    await expect(pa.getByTestId('conversation-secret')).toHaveText(/Секретный чат/);

    // A picture and a file, each its own message; what goes up is ciphertext (each 16 bytes longer: the GCM tag).
    await pa.getByTestId('attach-input').setInputFiles({ name: PICTURE, mimeType: 'image/png', buffer: png });
    await sendPreviewed(pa);
    await expect(pa.locator('[data-message-id^="tmp-"]')).toHaveCount(0, { timeout: 20_000 });
    await pa.getByTestId('attach-input').setInputFiles({ name: FILE, mimeType: 'text/plain', buffer: fileBytes });
    await sendPreviewed(pa);
    await expect(pa.locator('[data-message-id^="tmp-"]')).toHaveCount(0, { timeout: 20_000 });
    const stored = await srv.server.ctx.db
      .selectFrom('uploads')
      .select(['size', 'mime', 'kind'])
      .orderBy('created_at')
      .execute();
    expect(stored.map((u) => ({ ...u, size: Number(u.size) }))).toEqual([
      { size: png.length + 16, mime: 'application/octet-stream', kind: 'SECRET' },
      { size: fileBytes.length + 16, mime: 'application/octet-stream', kind: 'SECRET' },
    ]);

    // A voice message of about 2 s from the fake microphone.
    await pa.getByRole('button', { name: 'Записать голосовое сообщение' }).click();
    const recorder = pa.getByRole('region', { name: 'Запись голосового сообщения' });
    await expect(pa.getByTestId('recorder-time')).toHaveText('0:02', { timeout: 20_000 });
    await recorder.getByRole('button', { name: 'Отправить' }).click();
    await expect(recorder).toHaveCount(0);
    await expect(pa.locator('[data-message-id^="tmp-"]')).toHaveCount(0, { timeout: 20_000 });
    await expect(pa.getByTestId('voice-player')).toHaveCount(1, { timeout: 20_000 });
    // A second picture, for the lightbox's previous/next.
    const png2 = await sharp(noise.subarray(0, 32 * 24 * 3), { raw: { width: 32, height: 24, channels: 3 } })
      .png()
      .toBuffer();
    await pa.getByTestId('attach-input').setInputFiles({ name: PICTURE_2, mimeType: 'image/png', buffer: png2 });
    await sendPreviewed(pa);
    await expect(pa.locator('[data-message-id^="tmp-"]')).toHaveCount(0, { timeout: 20_000 });

    // Борис: the picture decrypted into an object URL and drawn.
    await pb.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
    const picture = pb.getByRole('img', { name: PICTURE });
    await expect(picture).toBeVisible({ timeout: 30_000 });
    await expect(picture).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);

    // It opens in the lightbox, decrypted, with the chat's other picture one step away.
    await expect(pb.getByRole('img', { name: PICTURE_2 })).toBeVisible({ timeout: 30_000 });
    await pb.getByRole('button', { name: `Открыть изображение ${PICTURE}` }).click();
    const lightbox = pb.getByTestId('lightbox');
    await expect(lightbox).toBeVisible();
    await expect(lightbox.getByText(`${PICTURE} · 1 из 2`)).toBeVisible();
    const shown = lightbox.getByRole('img', { name: PICTURE });
    await expect(shown).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    await pb.keyboard.press('ArrowRight');
    const next = lightbox.getByRole('img', { name: PICTURE_2 });
    await expect.poll(() => next.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);
    await expectNoSeriousA11yViolations(pb, 'secret picture in the lightbox');
    await pb.keyboard.press('Escape');
    await expect(lightbox).toHaveCount(0);

    // The file: its name and size, saved under its name with the same bytes.
    const save = pb.getByRole('button', { name: `Скачать файл ${FILE}, ${fileBytes.length} Б` });
    await expect(save).toBeVisible({ timeout: 30_000 });
    const [download] = await Promise.all([pb.waitForEvent('download'), save.click()]);
    expect(download.suggestedFilename()).toBe(FILE);
    const saved = await download.path();
    expect(fs.readFileSync(saved).equals(fileBytes)).toBe(true);

    // The voice message: its length came encrypted, and it plays from the decrypted recording.
    const player = pb.getByTestId('voice-player');
    await expect(player).toHaveCount(1, { timeout: 30_000 });
    await expect(player.getByTestId('voice-time')).toHaveText('0:02');
    await expect(player.getByTestId('voice-audio')).toHaveAttribute('src', /^blob:/, { timeout: 20_000 });
    await player.getByRole('button', { name: 'Воспроизвести голосовое сообщение' }).click();
    await expect
      .poll(() => player.getByTestId('voice-audio').evaluate((a: HTMLAudioElement) => a.currentTime), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0.3);
    await player.getByRole('button', { name: 'Пауза' }).click();
    await expectNoSeriousA11yViolations(pb, 'secret attachments');

    // A reload opens them again from the kept message and the server's ciphertext.
    await pb.reload();
    await expect(pb.getByRole('img', { name: PICTURE })).toBeVisible({ timeout: 30_000 });
    // On a phone too, for the sender's own picture.
    await pa.setViewportSize({ width: 390, height: 844 });
    await pa.getByRole('button', { name: `Открыть изображение ${PICTURE_2}` }).click();
    await expect(pa.getByTestId('lightbox').getByRole('img', { name: PICTURE_2 })).toHaveAttribute('src', /^blob:/);
    await pa.getByRole('button', { name: 'Закрыть' }).click();
    await expect(pa.getByTestId('lightbox')).toHaveCount(0);

    // Nothing the server keeps or logs holds the files, their pixels or their names.
    await srv.server.app.close().catch(() => undefined);
    const haystacks = [
      ...filesUnder(srv.config.dataDir).map((f) => ({ where: f, bytes: fs.readFileSync(f) })),
      { where: 'log', bytes: Buffer.from(logs.join(''), 'utf8') },
    ];
    expect(haystacks.some((h) => h.where.includes(`${path.sep}uploads${path.sep}`))).toBe(true);
    expect(logs.length).toBeGreaterThan(0);
    const needles = [
      { what: 'the file', bytes: fileBytes },
      { what: 'a part of the file', bytes: fileBytes.subarray(20, 52) },
      { what: 'the picture', bytes: png.subarray(png.length - 200, png.length - 100) },
      { what: 'the picture’s name', bytes: Buffer.from(PICTURE, 'utf8') },
      { what: 'the file’s name', bytes: Buffer.from(FILE, 'utf8') },
      { what: 'the voice message’s name', bytes: Buffer.from('voice.webm', 'utf8') },
    ];
    for (const n of needles)
      for (const h of haystacks) expect(h.bytes.includes(n.bytes), `${n.what} in ${h.where}`).toBe(false);
  } finally {
    await srv.close();
  }
});
