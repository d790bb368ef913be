// «Импорт истории» in real Chromium against the real server (docs/behaviour.md §10.39): a Telegram export with photos
// and a voice message goes into a group through «Информация», its authors mapped («Кто это в Беседе?»), and a word
// of it is found in another form («собаку» for «собака»); a WhatsApp export in its Russian date format goes into a
// new group from Settings; an export imported into a secret chat is read and encrypted in the browser, and nothing
// the server wrote to disk holds its text, and a secret chat's import stopped by a reload continues, when the same file
// is chosen again, after the last batch the server took. Axe on the dialog's steps.
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, BrowserContextOptions, Page, Route } from '@playwright/test';
import { startTestServer, type TestServer } from '../tests/server/harness';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { telegramExport, WHATSAPP_LINES, whatsappExport } from './history-exports';
import { becomeDevice, filesUnder, startSecretChat } from './secret-helpers';
import { createGroup, createUser, type E2EUser, makeFriends, signInContext } from './users';

const tile = (page: Page, title: string) => page.getByTestId('chat-tile').filter({ hasText: title });
const panel = (page: Page) => page.getByRole('complementary', { name: 'Информация' });
const importDialog = (page: Page) => page.getByRole('dialog', { name: 'Импорт истории' });

test('a Telegram export with photos and a voice message goes into a group, its authors mapped, and is searchable', async ({
  srv,
  createUser: newUser,
  openSignedIn,
}) => {
  test.setTimeout(120_000);
  const anna = await newUser('Анна', 'anna');
  const boris = await newUser('Борис', 'boris');
  await makeFriends(srv.url, anna, boris);
  const id = await createGroup(srv.url, anna, [boris], 'Дача');
  const exp = await telegramExport();

  const { page: pa } = await openSignedIn(anna);
  await tile(pa, 'Дача').click();
  await pa.locator('.conv-title').getByRole('button', { name: 'Дача' }).click();
  await panel(pa).getByRole('button', { name: 'Импорт истории' }).click();
  const dialog = importDialog(pa);
  await expect(dialog.getByText('Выбрать файл экспорта')).toBeVisible();
  await expectNoSeriousA11yViolations(pa, 'import: choose a file');

  await dialog
    .getByTestId('history-import-file')
    .setInputFiles({ name: 'Дача.zip', mimeType: 'application/zip', buffer: exp.zip });

  // «Кто это в Беседе?»: the server suggests Анна by name; Борис is chosen; Ольга stays a name.
  await expect(dialog.getByRole('heading', { name: 'Кто это в Беседе?' })).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByTestId('import-author')).toHaveCount(3);
  await dialog.getByRole('combobox', { name: `Кто это: ${exp.authors.boris}` }).selectOption(boris.user.id);
  await dialog.getByRole('combobox', { name: `Кто это: ${exp.authors.anna}` }).selectOption(anna.user.id);
  await expect(dialog.getByRole('combobox', { name: `Кто это: ${exp.authors.olga}` })).toHaveValue('');
  await expectNoSeriousA11yViolations(pa, 'import: who is who');
  await dialog.getByRole('button', { name: 'Импортировать' }).click();

  await expect(dialog.getByText(/Готово: импортировано/)).toBeVisible({ timeout: 60_000 });
  await dialog.getByRole('button', { name: 'Закрыть', exact: true }).click();

  // The timeline: Ольга as a name from Telegram, the photos as pictures, the voice message as a player, the sticker
  // as a line saying what it was, and the divider after the imported history.
  const messages = pa.getByTestId('message');
  await expect(messages.filter({ hasText: exp.dogText }).filter({ hasText: 'Ольга (из Telegram)' })).toBeVisible({
    timeout: 20_000,
  });
  // Борис's reply to it, edited there, is his own message here, still a reply.
  await expect(messages.filter({ hasText: 'Смотрите' })).toContainText(`Ответ на: ${exp.dogText}`);
  await expect(pa.getByRole('img', { name: /^photo_\d@/ })).toHaveCount(2, { timeout: 20_000 });
  await expect(pa.getByTestId('voice-player')).toHaveCount(1);
  await expect(messages.filter({ hasText: /Стикер/ })).toHaveCount(1);
  await expect(pa.getByText(/Импортировано из Telegram · \d+\s+сообщени/)).toBeVisible();

  // Found at once by another form of the word.
  await pa.getByRole('searchbox', { name: 'Поиск по сообщениям' }).fill('собаку');
  const hit = pa.getByTestId('search-result').filter({ hasText: exp.dogText });
  await expect(hit).toHaveCount(1, { timeout: 15_000 });
  await expect(hit.locator('mark')).toHaveText('собака');
  expect(id).toBeTruthy();
});

test('a WhatsApp export in the Russian date format goes into a new group from Settings', async ({
  srv,
  createUser: newUser,
  openSignedIn,
}) => {
  test.setTimeout(90_000);
  const anna = await newUser('Анна', 'anna');
  const { page: pa } = await openSignedIn(anna, { path: '/settings' });
  const section = pa.getByRole('region', { name: 'Импорт истории' });
  await section.getByRole('button', { name: 'Импорт истории' }).click();
  const dialog = importDialog(pa);
  await dialog
    .getByTestId('history-import-file')
    .setInputFiles({ name: 'WhatsApp.zip', mimeType: 'application/zip', buffer: whatsappExport(WHATSAPP_LINES) });

  await expect(dialog.getByRole('heading', { name: 'Кто это в Беседе?' })).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByTestId('import-author')).toHaveCount(2);
  await dialog.getByRole('combobox', { name: 'Кто это: Анна' }).selectOption(anna.user.id);
  await dialog.getByRole('textbox', { name: 'Название новой группы' }).fill('Вера и я');
  await dialog.getByRole('button', { name: 'Импортировать' }).click();
  await expect(dialog.getByText(/Готово: импортировано/)).toBeVisible({ timeout: 60_000 });
  await dialog.getByRole('button', { name: 'Закрыть', exact: true }).click();

  await pa.goto(`${srv.url}/`);
  await tile(pa, 'Вера и я').click();
  const messages = pa.getByTestId('message');
  // The multi-line message stays one, and the dates are the export's (12 and 13 March 2024).
  await expect(messages.filter({ hasText: 'Давай в субботу' })).toContainText('в десять у метро');
  await expect(pa.getByText('Вера (из WhatsApp)').first()).toBeVisible();
  await expect(messages.filter({ hasText: 'Купила билеты на электричку' })).toBeVisible();
  await expect(pa.getByText(/12 марта 2024/).first()).toBeVisible();
});

type NewContext = (options?: BrowserContextOptions) => Promise<BrowserContext>;

async function openIn(newContext: NewContext, srv: TestServer, u: E2EUser): Promise<Page> {
  const context = await newContext({ baseURL: srv.url });
  await signInContext(context, u);
  const page = await context.newPage();
  await page.goto(srv.url);
  return page;
}

test('an export imported into a secret chat is encrypted in the browser: the server keeps none of its text', async ({
  newContext,
}) => {
  test.setTimeout(180_000);
  const logs: string[] = [];
  const srv = await startTestServer(
    { clientDir: path.resolve(process.env.E2E_CLIENT_DIR ?? 'dist'), logLevel: 'debug' },
    { logStream: { write: (line) => void logs.push(line) } },
  );
  try {
    const anna = await createUser(srv.url, 'Анна', 'anna');
    const boris = await createUser(srv.url, 'Борис', 'boris');
    await makeFriends(srv.url, anna, boris);
    const pa = await openIn(newContext, srv, anna);
    const pb = await openIn(newContext, srv, boris);
    await becomeDevice(pb);

    await startSecretChat(pa, /Борис/);
    await expect(pa.getByTestId('conversation-secret')).toHaveText(/Секретный чат/);

    const SECRET_LINE = 'Тайник под старой яблоней у забора';
    const zip = whatsappExport([
      '[12.03.2024, 14:05:33] Вера: Привет! Это секрет',
      `[12.03.2024, 14:06:10] Вера: ${SECRET_LINE}`,
      '[12.03.2024, 14:07:00] Анна: Поняла, никому не скажу',
    ]);
    await pa.locator('.conv-title').getByRole('button').first().click();
    await panel(pa).getByRole('button', { name: 'Импорт истории' }).click();
    const dialog = importDialog(pa);
    await expect(dialog).toContainText('сервер не увидит переписку');
    await expectNoSeriousA11yViolations(pa, 'import into a secret chat: choose a file');
    await dialog
      .getByTestId('history-import-file')
      .setInputFiles({ name: 'WhatsApp.zip', mimeType: 'application/zip', buffer: zip });
    await expect(dialog.getByText(/Готово: импортировано 3 сообщения/)).toBeVisible({ timeout: 90_000 });
    await dialog.getByRole('button', { name: 'Закрыть', exact: true }).click();

    // Борис's device reads the imported messages (MLS ciphertext from Анна's device).
    await pb.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
    await expect(pb.getByTestId('message').filter({ hasText: SECRET_LINE })).toBeVisible({ timeout: 60_000 });
    await expect(pb.getByTestId('message').filter({ hasText: SECRET_LINE })).toContainText('Вера (из WhatsApp)');

    // Nothing the server keeps or logs holds the export's words or names.
    await srv.server.app.close().catch(() => undefined);
    const haystacks = [
      ...filesUnder(srv.config.dataDir).map((f) => ({ where: f, bytes: fs.readFileSync(f) })),
      { where: 'log', bytes: Buffer.from(logs.join(''), 'utf8') },
    ];
    expect(logs.length).toBeGreaterThan(0);
    const needles = [SECRET_LINE, 'Тайник', 'яблоней', 'никому не скажу', 'Вера (из WhatsApp)'].map((s) => ({
      what: s,
      bytes: Buffer.from(s, 'utf8'),
    }));
    for (const n of needles)
      for (const h of haystacks) expect(h.bytes.includes(n.bytes), `«${n.what}» in ${h.where}`).toBe(false);
  } finally {
    await srv.close();
  }
});

test('a secret chat’s import stopped by a reload continues from its kept position: every message once, in order', async ({
  newContext,
  srv,
  createUser: newUser,
}) => {
  test.setTimeout(240_000);
  const anna = await newUser('Анна', 'anna');
  const boris = await newUser('Борис', 'boris');
  await makeFriends(srv.url, anna, boris);
  const pa = await openIn(newContext, srv, anna);
  const pb = await openIn(newContext, srv, boris);
  await becomeDevice(pb);

  const conversationId = await startSecretChat(pa, /Борис/);
  await expect(pa.getByTestId('conversation-secret')).toHaveText(/Секретный чат/);

  // Four full batches of SECRET_BATCH (50) and a part: the third batch is held, then the page reloads.
  const TOTAL = 210;
  const at = (i: number) => {
    const minutes = 10 * 60 + i;
    return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
  };
  const zip = whatsappExport(
    Array.from({ length: TOTAL }, (_, i) => `[12.03.2024, ${at(i)}] Вера: Сообщение №${i + 1}`),
  );
  const BATCHES = '**/api/imports/secret-batch';
  const firstIndex = (route: Route) =>
    (route.request().postDataJSON() as { messages: { index: number }[] }).messages[0]?.index;

  // One handler for the whole test, never removed (removing it could let a held request through): before the reload
  // the first two batches pass and the third is held for good; after it, the first batch is held until checked.
  let posted = 0;
  let reloaded = false;
  const held: Route[] = [];
  let onHeld: () => void = () => undefined;
  const heldNow = () =>
    new Promise<void>((resolve) => {
      onHeld = resolve;
    });
  const thirdHeld = heldNow();
  await pa.route(BATCHES, async (route) => {
    posted += 1;
    if ((!reloaded && posted < 3) || (reloaded && held.length > 1)) return route.continue();
    if (!reloaded && held.length > 0) return; // nothing after the third before the reload
    held.push(route);
    onHeld();
  });

  const openImport = async () => {
    await pa.locator('.conv-title').getByRole('button').first().click();
    await panel(pa).getByRole('button', { name: 'Импорт истории' }).click();
    return importDialog(pa);
  };
  let dialog = await openImport();
  await dialog
    .getByTestId('history-import-file')
    .setInputFiles({ name: 'WhatsApp.zip', mimeType: 'application/zip', buffer: zip });
  await thirdHeld;
  // Two batches are in and kept; the third waits on the network when the page reloads.
  await expect(dialog.getByTestId('import-progress')).toHaveText(`Импорт: 100 из ${TOTAL}`);
  expect(firstIndex(held[0] as Route)).toBe(100);
  const resumedNow = heldNow();
  reloaded = true;
  await pa.reload();

  // Reopened, the dialog says where the import stopped and asks for the same file; the first batch it then posts
  // starts at the kept position, and so does the progress.
  await expect(pa.getByTestId('conversation-secret')).toHaveText(/Секретный чат/);
  dialog = await openImport();
  await expect(dialog.getByTestId('import-stopped')).toContainText(`Импорт остановился: 100 из ${TOTAL}`);
  await dialog
    .getByTestId('history-import-file')
    .setInputFiles({ name: 'WhatsApp.zip', mimeType: 'application/zip', buffer: zip });
  await resumedNow;
  await expect(dialog.getByTestId('import-progress')).toHaveText(`Импорт: 100 из ${TOTAL}`);
  expect(firstIndex(held[1] as Route)).toBe(100);
  await (held[1] as Route).continue();
  await expect(dialog.getByText(/Готово: импортировано/)).toBeVisible({ timeout: 120_000 });

  // The server holds each message of the export once, at its place, in the export's order.
  const rows = await srv.server.ctx.db
    .selectFrom('messages')
    .select(['seq', 'created_at', 'import_source_id'])
    .where('conversation_id', '=', conversationId)
    .where('import_key', 'is not', null)
    .orderBy('seq')
    .execute();
  expect(rows).toHaveLength(TOTAL);
  expect(new Set(rows.map((r) => r.import_source_id)).size).toBe(TOTAL);
  const times = rows.map((r) => Date.parse(String(r.created_at)));
  expect(times.every((t, i) => i === 0 || t > (times[i - 1] as number))).toBe(true);

  // Борис's device decrypts them: the last ones once each, in order.
  await pb.getByTestId('chat-tile').filter({ hasText: 'Секретный чат' }).click();
  // The text's own paragraph (the message's time follows it in the bubble).
  const texts = pb
    .getByTestId('message')
    .locator('p')
    .filter({ hasText: /Сообщение №\d+$/ });
  await expect(texts.filter({ hasText: /№210$/ })).toHaveCount(1, { timeout: 60_000 });
  const numbers = (await texts.allInnerTexts()).map((t) => Number(/№(\d+)$/.exec(t.trim())?.[1]));
  expect(numbers.length).toBeGreaterThan(1);
  expect(numbers).toEqual([...new Set(numbers)].sort((x, y) => x - y));
  expect(numbers.at(-1)).toBe(TOTAL);
});
