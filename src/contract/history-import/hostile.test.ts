// Malformed and hostile exports: each is refused with a Russian ImportFormatError, never a crash or a partial read.
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  analyseExport,
  type ByteSource,
  ImportFormatError,
  openExport,
  readExportMessages,
  zipExportFiles,
} from './index';
import { NOW, enc, telegramChat, tg, zipOf, zipSource } from './test-fixtures';
import { bytesSource } from './zip';

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ImportFormatError);
    const message = (e as Error).message;
    expect(message).toMatch(/[а-яё]/i);
    return message;
  }
  throw new Error('expected a refusal');
}

async function drain(files: Parameters<typeof readExportMessages>[0]): Promise<number> {
  let n = 0;
  for await (const _ of readExportMessages(files, { now: NOW })) n++;
  return n;
}

const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
/** Offsets of each central-directory record of a ZIP. */
function centralRecords(zip: Uint8Array): number[] {
  const v = dv(zip);
  let end = zip.length - 22;
  while (v.getUint32(end, true) !== 0x06054b50) end--;
  const count = v.getUint16(end + 10, true);
  let p = v.getUint32(end + 16, true);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    out.push(p);
    p += 46 + v.getUint16(p + 28, true) + v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
  }
  return out;
}

describe('zip bombs', () => {
  it('a file compressed beyond the ratio limit is refused from the directory alone', async () => {
    const zip = zipSync({ 'result.json': new Uint8Array(20 * 1024 * 1024) }, { level: 9 });
    expect(await refusal(zipExportFiles(bytesSource(zip)))).toBe(
      'Файл «result.json» в архиве сжат подозрительно сильно (похоже на zip-бомбу): архив отклонён.',
    );
  });

  it('a directory that understates a file’s size is caught while inflating, at the first byte past it', async () => {
    const body = telegramChat(
      Array.from({ length: 3000 }, (_, i) =>
        tg(i + 1, '2024-03-12T14:05:33', { from: 'А', from_id: 'user1', text: `сообщение ${i}` }),
      ),
    );
    const zip = zipOf({ 'result.json': body });
    const [rec] = centralRecords(zip);
    dv(zip).setUint32(rec + 24, 1000, true); // declared uncompressed size: 1 000 bytes
    const files = await zipExportFiles(bytesSource(zip));
    let produced = 0;
    const message = await refusal(
      (async () => {
        for await (const c of files.open('result.json')) produced += c.length;
      })(),
    );
    expect(message).toBe('Файл «result.json» в архиве распаковывается не в тот размер, что заявлен: архив отклонён.');
    expect(produced).toBeLessThanOrEqual(1000);
    expect(await refusal(analyseExport(files, { now: NOW }))).toBe(message);
  });

  it('a directory that overstates a file’s size is refused at its end', async () => {
    const zip = zipOf({
      'result.json': telegramChat([tg(1, '2024-03-12T14:05:33', { from: 'А', from_id: 'user1', text: 'x' })]),
    });
    const [rec] = centralRecords(zip);
    dv(zip).setUint32(rec + 24, dv(zip).getUint32(rec + 24, true) + 10, true);
    const files = await zipExportFiles(bytesSource(zip));
    expect(await refusal(analyseExport(files, { now: NOW }))).toMatch(/не в тот размер/);
  });

  it('entries sharing compressed bytes (an overlapping bomb) are refused', async () => {
    const zip = zipOf({ 'a.txt': 'x'.repeat(5000), 'b.txt': 'y'.repeat(5000) });
    const [a, b] = centralRecords(zip);
    dv(zip).setUint32(b + 42, dv(zip).getUint32(a + 42, true), true);
    expect(await refusal(zipExportFiles(bytesSource(zip)))).toBe(
      'Файлы в архиве накладываются друг на друга (похоже на zip-бомбу): архив отклонён.',
    );
  });

  it('a corrupted file fails its checksum', async () => {
    const zip = zipSync({ '_chat.txt': enc('12.03.2024, 14:05 - Анна: привет\n'.repeat(50)) }, { level: 0 });
    zip[60] ^= 0x01; // inside the stored data
    const files = await zipExportFiles(bytesSource(zip));
    expect(await refusal(drain(files))).toMatch(/контрольная сумма/);
  });

  it('too many entries and too many bytes', async () => {
    const zip = zipOf({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    expect(await refusal(zipExportFiles(bytesSource(zip), { maxEntries: 2 }))).toMatch(
      /больше, чем можно импортировать/,
    );
    expect(await refusal(zipExportFiles(bytesSource(zip), { maxTotalBytes: 2 }))).toMatch(/слишком большой объём/);
  });
});

describe('paths', () => {
  for (const name of [
    '../evil.txt',
    'ok/../../evil.txt',
    '/etc/passwd',
    'C:/Windows/x.txt',
    '..\\..\\evil.txt',
    'a\\..\\..\\evil.txt',
  ]) {
    it(`«${name}» is refused`, async () => {
      const zip = zipOf({ 'result.json': '{}', [name]: 'x' });
      expect(await refusal(zipExportFiles(bytesSource(zip)))).toMatch(/за пределы экспорта|абсолютным путём/);
    });
  }

  it('a symlink is refused', async () => {
    const zip = zipOf({ 'result.json': '{}', 'photos/link.jpg': '/etc/passwd' });
    const [, link] = centralRecords(zip);
    const v = dv(zip);
    v.setUint16(link + 4, (3 << 8) | 20, true); // made on Unix
    v.setUint32(link + 38, (0o120777 << 16) >>> 0, true); // S_IFLNK
    expect(await refusal(zipExportFiles(bytesSource(zip)))).toBe(
      'Файл «photos/link.jpg» в архиве — символическая ссылка: архив отклонён.',
    );
  });

  it('names: UTF-8 without the flag, and code page 866 (Windows’ own ZIP writer on a Russian system)', async () => {
    const zip = zipOf({ 'result.json': '{}', 'files/XXXXX.pdf': 'a', 'files/YYYY.txt': 'b' });
    const [, cp866, utf8] = centralRecords(zip);
    zip.set([0xae, 0xe2, 0xe7, 0xf1, 0xe2], cp866 + 46 + 6); // «отчёт»
    zip.set(enc('ёж'), utf8 + 46 + 6); // four bytes, no flag
    const files = await zipExportFiles(bytesSource(zip));
    expect((await files.list()).map((f) => f.path)).toEqual(['result.json', 'files/отчёт.pdf', 'files/ёж.txt']);
  });

  it('a duplicated name is refused; macOS’s own files are ignored', async () => {
    const files = await zipExportFiles(
      zipSource({ 'result.json': '{}', '__MACOSX/._result.json': 'x', '.DS_Store': 'x' }),
    );
    expect((await files.list()).map((f) => f.path)).toEqual(['result.json']);
    await expect(files.open('../result.json')[Symbol.asyncIterator]().next()).rejects.toThrow(ImportFormatError);
    const zip = zipOf({ 'a.txt': 'a', 'b.txt': 'b' });
    const [, b] = centralRecords(zip);
    zip[b + 46] = 0x61; // the second record's name becomes «a.txt» too
    expect(await refusal(zipExportFiles(bytesSource(zip)))).toBe(
      'Файл «a.txt» встречается в архиве дважды: архив отклонён.',
    );
  });
});

describe('JSON', () => {
  it('a 10 000-level nesting is refused, where messages are and where they are not', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const json of [
      `{"messages":[${deep}]}`,
      `{"contacts":${deep},"messages":[]}`,
      `{"messages":[{"text":${deep}}]}`,
    ]) {
      const files = await zipExportFiles(zipSource({ 'result.json': json }));
      expect(await refusal(analyseExport(files, { now: NOW }))).toBe(
        'Файл экспорта повреждён: слишком глубокая вложенность.',
      );
    }
    const files = await zipExportFiles(zipSource({ 'result.json': deep }));
    expect(await refusal(analyseExport(files, { now: NOW }))).toBe(
      'result.json — не экспорт Telegram: ожидался JSON-объект.',
    );
  });

  it('truncated, broken and empty result.json', async () => {
    const whole = telegramChat([tg(1, '2024-03-12T14:05:33', { from: 'А', from_id: 'user1', text: 'x' })]);
    const cases: Array<[string, RegExp]> = [
      [whole.slice(0, whole.length - 10), /обрывается посередине/],
      [whole.replace('"text"', '"text" "x"'), /неверный JSON/],
      [whole.replace('"name"', '"name" "x"'), /ожидалось «:»/],
      [whole.replace('"type"', 'type'), /ожидалось имя поля/],
      [`${whole}}`, /лишние данные/],
      ['{"name":"Пусто","type":"personal_chat","id":1,"messages":[]}', /нет сообщений/],
      ['{"messages":[1]}', /не объектом/],
      ['[]', /ожидался JSON-объект/],
      ['{"messages":[{"type":"message","date_unixtime":"1710252333"}]}', /нет номера/],
      ['{"messages":[{"id":1,"type":"message","date":"вчера"}]}', /неверная дата/],
    ];
    for (const [json, re] of cases) {
      const files = await zipExportFiles(zipSource({ 'result.json': json }));
      expect(await refusal(analyseExport(files, { now: NOW }))).toMatch(re);
    }
  });
});

describe('dates in the future', () => {
  it('Telegram: a message after now + 1 day refuses the whole export before anything is read', async () => {
    const files = await zipExportFiles(
      zipSource({
        'result.json': telegramChat([
          tg(1, '2024-03-12T14:05:33', { from: 'А', from_id: 'user1', text: 'сейчас' }),
          tg(2, '2031-01-01T00:00:00', { from: 'А', from_id: 'user1', text: 'будущее' }),
        ]),
      }),
    );
    expect(await refusal(analyseExport(files, { now: NOW }))).toBe(
      'Сообщение № 2 датировано будущим (01.01.2031): экспорт повреждён или изменён, импорт отменён.',
    );
    // Within a day of now is a clock's skew, not an error.
    expect((await analyseExport(files, { now: Date.UTC(2030, 11, 31, 1) })).messageCount).toBe(2);
  });

  it('WhatsApp: the same rule, naming the line', async () => {
    const files = await zipExportFiles(
      zipSource({ '_chat.txt': '[12.03.2024, 14:05:33] Анна: раз\n[12.03.2030, 14:05:33] Анна: два\n' }),
    );
    expect(await refusal(analyseExport(files, { now: NOW }))).toBe(
      'Сообщение в строке 2 датировано будущим (12.03.2030): экспорт повреждён или изменён, импорт отменён.',
    );
  });
});

describe('not an export', () => {
  it('truncated archive, not an archive, empty archive, empty file, an HTML export, no chat file', async () => {
    const zip = zipOf({
      'result.json': telegramChat([tg(1, '2024-03-12T14:05:33', { from: 'А', from_id: 'user1', text: 'x' })]),
    });
    expect(await refusal(zipExportFiles(bytesSource(zip.subarray(0, zip.length - 30))))).toBe(
      'Архив повреждён или это не ZIP-файл.',
    );
    expect(await refusal(zipExportFiles(bytesSource(zip.subarray(0, 40))))).toBe(
      'Архив повреждён или это не ZIP-файл.',
    );
    expect(await refusal(zipExportFiles(bytesSource(enc('просто текст, не архив'))))).toBe(
      'Архив повреждён или это не ZIP-файл.',
    );
    expect(await refusal(openExport(bytesSource(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]))))).toMatch(
      /Это не экспорт истории/,
    );
    expect(await refusal(openExport(bytesSource(new Uint8Array())))).toBe('Файл пуст.');
    const empty = await zipExportFiles(bytesSource(zipSync({})));
    expect(await refusal(analyseExport(empty))).toBe('Экспорт пуст: в нём нет ни одного файла.');
    const html = await zipExportFiles(zipSource({ 'messages.html': '<html>', 'css/style.css': '' }, 'ChatExport/'));
    expect(await refusal(analyseExport(html))).toMatch(/формате HTML/);
    const photos = await zipExportFiles(zipSource({ 'IMG_0001.jpg': 'x', 'IMG_0002.jpg': 'y' }));
    expect(await refusal(analyseExport(photos))).toMatch(/это не экспорт истории/);
    const notChat = await zipExportFiles(zipSource({ '_chat.txt': 'Список покупок\nхлеб\nмолоко\n' }));
    expect(await refusal(analyseExport(notChat))).toMatch(/нет строк с датой/);
  });
});

/**
 * A stored (uncompressed) ZIP holding one file of `size` bytes that starts with `head` and continues with `fill`
 * bytes: synthesised on read, never allocated. Past 4 GiB it is written as ZIP64.
 */
function syntheticZip(name: string, head: Uint8Array, fill: number, size: number): ByteSource & { reads: number } {
  const zip64 = size >= 0xffffffff;
  const small = (n: number) => (zip64 ? 0xffffffff : n);
  const nameBytes = enc(name);
  const extra = zip64 ? 20 : 0; // id, length, size, compressed size
  const local = new Uint8Array(30 + nameBytes.length + extra);
  const lv = dv(local);
  lv.setUint32(0, 0x04034b50, true);
  lv.setUint16(4, 45, true);
  lv.setUint32(18, small(size), true);
  lv.setUint32(22, small(size), true);
  lv.setUint16(26, nameBytes.length, true);
  lv.setUint16(28, extra, true);
  local.set(nameBytes, 30);
  if (zip64) {
    lv.setUint16(30 + nameBytes.length, 1, true);
    lv.setUint16(32 + nameBytes.length, 16, true);
    lv.setBigUint64(34 + nameBytes.length, BigInt(size), true);
    lv.setBigUint64(42 + nameBytes.length, BigInt(size), true);
  }
  const dataStart = local.length;
  const cdStart = dataStart + size;
  const cd = new Uint8Array(46 + nameBytes.length + extra);
  const cv = dv(cd);
  cv.setUint32(0, 0x02014b50, true);
  cv.setUint16(4, 45, true);
  cv.setUint16(6, 45, true);
  cv.setUint32(20, small(size), true);
  cv.setUint32(24, small(size), true);
  cv.setUint16(28, nameBytes.length, true);
  cv.setUint16(30, extra, true);
  cd.set(nameBytes, 46);
  if (zip64) {
    cv.setUint16(46 + nameBytes.length, 1, true);
    cv.setUint16(48 + nameBytes.length, 16, true);
    cv.setBigUint64(50 + nameBytes.length, BigInt(size), true);
    cv.setBigUint64(58 + nameBytes.length, BigInt(size), true);
  }
  // ZIP64: the 64-bit end record and its locator before the classic end record, whose fields then say «see there».
  const end64 = new Uint8Array(zip64 ? 56 + 20 : 0);
  if (zip64) {
    const v = dv(end64);
    v.setUint32(0, 0x06064b50, true);
    v.setBigUint64(4, 44n, true);
    v.setBigUint64(24, 1n, true);
    v.setBigUint64(32, 1n, true);
    v.setBigUint64(40, BigInt(cd.length), true);
    v.setBigUint64(48, BigInt(cdStart), true);
    v.setUint32(56, 0x07064b50, true);
    v.setBigUint64(64, BigInt(cdStart + cd.length), true);
    v.setUint32(72, 1, true);
  }
  const end = new Uint8Array(22);
  const ev = dv(end);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, zip64 ? 0xffff : 1, true);
  ev.setUint16(10, zip64 ? 0xffff : 1, true);
  ev.setUint32(12, small(cd.length), true);
  ev.setUint32(16, small(cdStart), true);
  const tail = new Uint8Array(cd.length + end64.length + end.length);
  tail.set(cd);
  tail.set(end64, cd.length);
  tail.set(end, cd.length + end64.length);
  const src = {
    size: cdStart + tail.length,
    reads: 0,
    async read(offset: number, length: number) {
      src.reads += length;
      const out = new Uint8Array(length);
      // Most of it is the fill byte: set that first, then the few structural bytes.
      out.fill(fill);
      for (let i = 0; i < length; i++) {
        const o = offset + i;
        if (o < dataStart) out[i] = local[o];
        else if (o < dataStart + head.length) out[i] = head[o - dataStart];
        else if (o >= cdStart) out[i] = tail[o - cdStart];
      }
      return out;
    },
  };
  return src;
}

describe('a 2 GB line', () => {
  const TWO_GB = 2 ** 31 - 1;

  it('WhatsApp: refused after the line limit, having read about that much', async () => {
    const src = syntheticZip('_chat.txt', enc('12.03.2024, 14:05 - Анна: '), 0x61, TWO_GB);
    const before = process.memoryUsage().heapUsed;
    const files = await zipExportFiles(src);
    expect(await refusal(analyseExport(files, { now: NOW }))).toBe(
      'Файл чата WhatsApp повреждён: в нём строка длиннее допустимого.',
    );
    expect(src.reads).toBeLessThan(8 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('Telegram: a 2 GB string is refused at the token limit', async () => {
    const src = syntheticZip('result.json', enc('{"name":"x","messages":[{"id":1,"text":"'), 0x61, TWO_GB);
    const files = await zipExportFiles(src);
    expect(await refusal(analyseExport(files, { now: NOW }))).toBe('Файл экспорта повреждён: слишком длинная строка.');
    expect(src.reads).toBeLessThan(8 * 1024 * 1024);
  });

  it('a 5 GB file in a ZIP64 archive is listed at its size and refused the same way', async () => {
    const FIVE_GB = 5 * 2 ** 30;
    const src = syntheticZip('ChatExport/_chat.txt', enc('12.03.2024, 14:05 - Анна: '), 0x61, FIVE_GB);
    const files = await zipExportFiles(src);
    expect(await files.list()).toEqual([{ path: '_chat.txt', size: FIVE_GB }]);
    expect(await refusal(analyseExport(files, { now: NOW }))).toBe(
      'Файл чата WhatsApp повреждён: в нём строка длиннее допустимого.',
    );
    expect(src.reads).toBeLessThan(8 * 1024 * 1024);
  });

  it('Telegram: a 2 GB string where nothing is built (skipped part) is refused too', async () => {
    const src = syntheticZip('result.json', enc('{"about":"'), 0x61, TWO_GB);
    const files = await zipExportFiles(src);
    expect(await refusal(analyseExport(files, { now: NOW }))).toBe('Файл экспорта повреждён: слишком длинная строка.');
  });
});
