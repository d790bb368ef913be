import { describe, expect, it } from 'vitest';
import { analyseExport, type ImportedMessage, openExport, readExportMessages, zipExportFiles } from './index';
import { JPEG, NOW, OGG, enc, zipSource } from './test-fixtures';
import { bytesSource } from './zip';
import { detectOrder } from './whatsapp';

const LRM = '\u200e';

async function all(files: Parameters<typeof readExportMessages>[0], opts = {}): Promise<ImportedMessage[]> {
  const out: ImportedMessage[] = [];
  for await (const m of readExportMessages(files, { now: NOW, ...opts })) out.push(m);
  return out;
}

describe('WhatsApp, iPhone, Russian, with media', () => {
  const chat = [
    `[12.03.2024, 14:05:33] Друзья: ${LRM}Сообщения и звонки защищены сквозным шифрованием. Никто вне этого чата не может их прочитать.`,
    `[12.03.2024, 14:05:40] Друзья: ${LRM}Анна создала группу «Друзья»`,
    '[12.03.2024, 14:06:00] Анна: Привет! Собака нашлась',
    '[12.03.2024, 14:06:10] Борис: Где?',
    'Расскажи подробнее',
    '',
    'и фото пришли',
    `[12.03.2024, 14:07:00] Анна: ${LRM}<прикреплено: 00000012-PHOTO-2024-03-12-14-07-00.jpg>`,
    `${LRM}[12.03.2024, 14:08:00] Анна: ${LRM}<прикреплено: 00000013-AUDIO-2024-03-12-14-08-00.opus>`,
    `[12.03.2024, 14:09:00] Борис: ${LRM}<прикреплено: 00000014-STICKER-2024-03-12-14-09-00.webp>`,
    `[12.03.2024, 14:10:00] Борис: отчёт.pdf • 3 страницы ${LRM}<прикреплено: 00000015-отчёт.pdf>`,
    `[12.03.2024, 14:11:00] Анна: ${LRM}изображение отсутствует`,
    `[12.03.2024, 14:12:00] Анна: Исправила ${LRM}<Это сообщение изменено>`,
    '[12.03.2024, 14:13:00] +7 999 123-45-67: я тоже тут',
  ].join('\r\n');

  it('reads authors, system lines, continuation lines, attachments and edits', async () => {
    const files = await zipExportFiles(
      zipSource({
        '_chat.txt': `\ufeff${chat}\r\n`,
        '00000012-PHOTO-2024-03-12-14-07-00.jpg': JPEG,
        '00000013-AUDIO-2024-03-12-14-08-00.opus': OGG,
        '00000014-STICKER-2024-03-12-14-09-00.webp': JPEG,
        '00000015-отчёт.pdf': '%PDF',
      }),
    );
    const summary = await analyseExport(files, { now: NOW });
    expect(summary).toMatchObject({
      source: 'whatsapp',
      messageCount: 11,
      chats: [{ id: '0', name: 'Друзья', type: 'whatsapp', messageCount: 11 }],
    });
    expect(summary.authors.map((a) => [a.key, a.messageCount])).toEqual([
      ['Анна', 5],
      ['Борис', 3],
      ['+7 999 123-45-67', 1],
    ]);
    const ms = await all(files);
    expect(ms.map((m) => m.sourceId)).toEqual(['1', '2', '3', '4', '8', '9', '10', '11', '12', '13', '14']);
    expect(ms[0]).toMatchObject({ kind: 'service', authorKey: null, date: Date.UTC(2024, 2, 12, 14, 5, 33) });
    expect(ms[1]).toMatchObject({ kind: 'service', authorKey: null, text: 'Анна создала группу «Друзья»' });
    expect(ms[2]).toEqual({
      sourceId: '3',
      date: Date.UTC(2024, 2, 12, 14, 6),
      authorKey: 'Анна',
      authorName: 'Анна',
      kind: 'text',
      text: 'Привет! Собака нашлась',
    });
    expect(ms[3].text).toBe('Где?\nРасскажи подробнее\n\nи фото пришли');
    expect(ms[4]).toMatchObject({
      kind: 'image',
      text: '',
      media: { path: '00000012-PHOTO-2024-03-12-14-07-00.jpg', mime: 'image/jpeg' },
    });
    expect(ms[5]).toMatchObject({
      kind: 'voice',
      media: { path: '00000013-AUDIO-2024-03-12-14-08-00.opus', mime: 'audio/ogg' },
    });
    expect(ms[6]).toMatchObject({ kind: 'placeholder', placeholder: 'Стикер' });
    expect(ms[7]).toMatchObject({
      kind: 'file',
      text: 'отчёт.pdf • 3 страницы',
      media: { name: '00000015-отчёт.pdf', mime: 'application/pdf' },
    });
    expect(ms[8]).toMatchObject({ kind: 'placeholder', placeholder: 'Фото (не экспортировано)' });
    expect(ms[9]).toMatchObject({ kind: 'text', text: 'Исправила', editedAt: Date.UTC(2024, 2, 12, 14, 12) });
    expect(ms[10]).toMatchObject({ authorKey: '+7 999 123-45-67', text: 'я тоже тут' });
  });

  it('wall-clock times are read in the given zone', async () => {
    const files = await zipExportFiles(
      zipSource({ '_chat.txt': '[12.03.2024, 14:06:00] Анна: Привет\n[01.07.2024, 00:30:00] Анна: летом' }),
    );
    const ms = await all(files, { timeZone: 'Europe/Moscow', now: Date.UTC(2024, 7, 1) });
    expect(ms.map((m) => m.date)).toEqual([Date.UTC(2024, 2, 12, 11, 6), Date.UTC(2024, 5, 30, 21, 30)]);
    const berlin = await all(files, { timeZone: 'Europe/Berlin', now: Date.UTC(2024, 7, 1) });
    // Winter (+1) and summer (+2) time.
    expect(berlin.map((m) => m.date)).toEqual([Date.UTC(2024, 2, 12, 13, 6), Date.UTC(2024, 5, 30, 22, 30)]);
    await expect(all(files, { timeZone: 'Марс/Олимп' })).rejects.toThrow('Неизвестный часовой пояс: Марс/Олимп.');
  });
});

describe('WhatsApp, Android', () => {
  it('Russian, without media: «Чат WhatsApp с X.txt», dd.mm.yyyy, 24 h, omitted media, system lines', async () => {
    const chat = [
      '12.03.2024, 14:05 - Сообщения и звонки защищены сквозным шифрованием. Подробнее.',
      '12.03.2024, 14:05 - Анна: Привет',
      '12.03.2024, 14:06 - Борис: <Без медиафайлов>',
      '13.03.2024, 09:00 - Анна: <Медиафайлы удалены>',
      '13.03.2024, 09:01 - Борис покинул(-а) группу',
      '13.03.2024, 09:02 - Анна: строка 1',
      'строка 2',
    ].join('\n');
    const files = await zipExportFiles(zipSource({ 'Чат WhatsApp с Анна.txt': chat }));
    const s = await analyseExport(files, { now: NOW });
    expect(s.chats[0].name).toBe('Анна');
    expect(s.authors.map((a) => a.key)).toEqual(['Анна', 'Борис']);
    const ms = await all(files);
    expect(ms.map((m) => m.kind)).toEqual(['service', 'text', 'placeholder', 'placeholder', 'service', 'text']);
    expect(ms[2].placeholder).toBe('Медиафайл (не экспортирован)');
    expect(ms[4]).toMatchObject({ authorKey: null, text: 'Борис покинул(-а) группу' });
    expect(ms[5]).toMatchObject({ date: Date.UTC(2024, 2, 13, 9, 2), text: 'строка 1\nстрока 2' });
  });

  it('English with media: «WhatsApp Chat with X.txt», m/d/yy, 12 h, «(file attached)»', async () => {
    const chat = [
      '3/12/24, 2:05 PM - Anna: text',
      '3/12/24, 2:06\u202fPM - Anna: IMG-20240312-WA0001.jpg (file attached)',
      'look at this',
      '3/12/24, 12:30 AM - Bob: PTT-20240312-WA0002.opus (file attached)',
      '3/13/24, 12:01 PM - Bob: VID-20240313-WA0003.mp4 (file attached)',
      '3/13/24, 12:02 PM - Bob: DOC-20240313-WA0004.pdf (file attached)',
      '3/13/24, 12:03 PM - Bob: <This message was edited>',
    ].join('\n');
    const files = await zipExportFiles(
      zipSource({
        'WhatsApp Chat with Anna.txt': chat,
        'IMG-20240312-WA0001.jpg': JPEG,
        'PTT-20240312-WA0002.opus': OGG,
        'VID-20240313-WA0003.mp4': JPEG,
      }),
    );
    const ms = await all(files);
    expect(ms.map((m) => [m.kind, m.date])).toEqual([
      ['text', Date.UTC(2024, 2, 12, 14, 5)],
      ['image', Date.UTC(2024, 2, 12, 14, 6)],
      ['voice', Date.UTC(2024, 2, 12, 0, 30)],
      ['video', Date.UTC(2024, 2, 13, 12, 1)],
      ['placeholder', Date.UTC(2024, 2, 13, 12, 2)],
      ['text', Date.UTC(2024, 2, 13, 12, 3)],
    ]);
    expect(ms[1]).toMatchObject({
      text: 'look at this',
      media: { path: 'IMG-20240312-WA0001.jpg', name: 'IMG-20240312-WA0001.jpg' },
    });
    expect(ms[4].placeholder).toBe('Файл «DOC-20240313-WA0004.pdf» (не экспортирован)');
    expect(ms[5].editedAt).toBe(Date.UTC(2024, 2, 13, 12, 3));
  });

  it('a lone .txt uploaded without a ZIP', async () => {
    const files = await openExport(bytesSource(enc('12/03/2024, 14:05 - Anna: hi\n13/03/2024, 14:05 - Bob: yo\n')), {
      name: 'WhatsApp Chat with Anna.txt',
    });
    const ms = await all(files);
    // British d/m/yyyy: 13 can only be a day.
    expect(ms.map((m) => m.date)).toEqual([Date.UTC(2024, 2, 12, 14, 5), Date.UTC(2024, 2, 13, 14, 5)]);
    expect((await analyseExport(files, { now: NOW })).chats[0].name).toBe('Anna');
  });
});

describe('date order', () => {
  const h = (a: number, b: number, c: number, sep = '/') => ({ a, b, c, sep, aDigits: String(a).length });
  it('a part above 12 settles it; else the order under which time runs forward; else the year length', () => {
    expect(detectOrder([h(3, 12, 24), h(3, 13, 24)])).toBe('mdy');
    expect(detectOrder([h(13, 3, 2024)])).toBe('dmy');
    expect(detectOrder([h(2024, 3, 12, '-')])).toBe('ymd');
    expect(detectOrder([h(1, 2, 24, '.')])).toBe('dmy');
    // 1 Feb, 2 Feb, 1 Mar (d/m) reads forward; as m/d it is 2 Jan, 2 Feb, 3 Jan — backwards once.
    expect(detectOrder([h(1, 2, 2024), h(2, 2, 2024), h(1, 3, 2024)])).toBe('dmy');
    expect(detectOrder([h(2, 1, 2024), h(2, 2, 2024), h(3, 1, 2024)])).toBe('mdy');
    expect(detectOrder([h(1, 1, 24)])).toBe('mdy');
    expect(detectOrder([h(1, 1, 2024)])).toBe('dmy');
  });
});

describe('WhatsApp, other header forms', () => {
  it('year first, a.m./p.m., single-digit hours, no seconds; a line that is no date in the file’s order continues a message', async () => {
    const files = await zipExportFiles(
      zipSource({
        '_chat.txt':
          '2024-03-12 9:05 a.m. - Anna: morning\n2024-03-12 9:05 p.m. - Anna: evening\n[3/13/24, 12:00:01 AM] Bob: x\n',
      }),
    );
    const ms = await all(files);
    expect(ms.map((m) => [m.date, m.text])).toEqual([
      [Date.UTC(2024, 2, 12, 9, 5), 'morning'],
      [Date.UTC(2024, 2, 12, 21, 5), 'evening\n[3/13/24, 12:00:01 AM] Bob: x'],
    ]);
  });
});
