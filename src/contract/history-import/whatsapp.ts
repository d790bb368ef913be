// WhatsApp's «Экспорт чата»: `_chat.txt` (iPhone) or «WhatsApp Chat with X.txt» / «Чат WhatsApp с X.txt»
// (Android), one message per header line plus its continuation lines, with the attachments beside it when the chat
// was exported with media. No time zone is written: wall-clock times are read in ReadOptions.timeZone.
import { baseName, checkDate, dirName, joinPath, mimeOf, type ReadOptions, Tally } from './common';
import { type ImportLimits, withLimits } from './limits';
import { readWhatsAppText } from './text-entities';
import {
  type ExportFiles,
  type ExportSummary,
  type ImportedKind,
  type ImportedMessage,
  ImportFormatError,
} from './types';

const CHAT_FILE = /^(?:_chat|WhatsApp Chat with .+|WhatsApp Chat - .+|Чат WhatsApp с .+|Чат WhatsApp - .+)\.txt$/i;

export function findWhatsAppChat(paths: string[]): string | undefined {
  const named = paths.filter((p) => CHAT_FILE.test(baseName(p)));
  named.sort((a, b) => a.split('/').length - b.split('/').length);
  if (named[0]) return named[0];
  // Any lone .txt at the top is taken as the chat (a renamed Android export).
  const txt = paths.filter((p) => !p.includes('/') && /\.txt$/i.test(p));
  return txt.length === 1 ? txt[0] : undefined;
}

function chatNameFromFile(path: string): string | undefined {
  const m = /^(?:WhatsApp Chat with |WhatsApp Chat - |Чат WhatsApp с |Чат WhatsApp - )(.+)\.txt$/i.exec(baseName(path));
  return m?.[1];
}

/** Direction and bidi marks WhatsApp sprinkles in (U+200E before system lines and attachments on iPhone). */
const MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

const HEADER =
  /^(\[)?(\d{1,4})([./-])(\d{1,2})\3(\d{1,4}),?\s+(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?(?:\s*([AaPp])\.?\s?[Mm]\.?)?(\])?(?:\s+-\s+|\s+)(.*)$/;

interface Header {
  a: number;
  b: number;
  c: number;
  aDigits: number;
  sep: string;
  h: number;
  min: number;
  s: number;
  rest: string;
  /** U+200E right after the author's colon: how iPhone marks a group's system lines (and attachments). */
  marked: boolean;
}

function parseHeader(line: string): Header | null {
  const clean = line.replace(MARKS, '').replace(/[\u202f\u00a0]/g, ' ');
  const m = HEADER.exec(clean);
  if (!m || Boolean(m[1]) !== Boolean(m[10])) return null;
  let h = Number(m[6]);
  const min = Number(m[7]);
  const s = m[8] ? Number(m[8]) : 0;
  if (m[9]) {
    if (h < 1 || h > 12) return null;
    const pm = m[9].toLowerCase() === 'p';
    h = (h % 12) + (pm ? 12 : 0);
  }
  if (h > 23 || min > 59 || s > 59) return null;
  const colon = line.indexOf(': ');
  return {
    a: Number(m[2]),
    b: Number(m[4]),
    c: Number(m[5]),
    aDigits: m[2].length,
    sep: m[3],
    h,
    min,
    s,
    rest: m[11],
    marked: colon >= 0 && line.charCodeAt(colon + 2) === 0x200e,
  };
}

type Order = 'dmy' | 'mdy' | 'ymd';

/** Which of day/month comes first, decided from the headers seen: a part above 12 settles it, else the order. */
export function detectOrder(headers: Array<Pick<Header, 'a' | 'b' | 'c' | 'aDigits' | 'sep'>>): Order {
  if (headers.length === 0) return 'dmy';
  if (headers[0].aDigits === 4) return 'ymd';
  if (headers.some((x) => x.a > 12)) return 'dmy';
  if (headers.some((x) => x.b > 12)) return 'mdy';
  if (headers[0].sep === '.') return 'dmy';
  // Both readings are valid dates: the one under which time runs forward more often.
  const back = (o: Order) => {
    let n = 0;
    let prev = -1;
    for (const x of headers) {
      const day = o === 'dmy' ? x.c * 10_000 + x.b * 100 + x.a : x.c * 10_000 + x.a * 100 + x.b;
      if (day < prev) n++;
      prev = day;
    }
    return n;
  };
  const d = back('dmy');
  const m = back('mdy');
  if (d !== m) return d < m ? 'dmy' : 'mdy';
  // Undecidable (every date ≤ 12th): a two-digit year with '/' is the US format, a four-digit one the British.
  return headers[0].c < 100 ? 'mdy' : 'dmy';
}

function ymd(h: Header, order: Order): [number, number, number] {
  const [y, mo, d] = order === 'ymd' ? [h.a, h.b, h.c] : order === 'dmy' ? [h.c, h.b, h.a] : [h.c, h.a, h.b];
  return [y < 100 ? 2000 + y : y, mo, d];
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/** The zone's offset from UTC at a moment, ms. */
function zoneOffset(utc: number, timeZone: string): number {
  let f = zoneFormats.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new ImportFormatError(`Неизвестный часовой пояс: ${timeZone}.`);
    }
    zoneFormats.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(utc))) p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(utc / 1000) * 1000;
}

function toUtc(h: Header, order: Order, timeZone: string, cache: Map<number, number>): number {
  const [y, mo, d] = ymd(h, order);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return Number.NaN;
  const wall = Date.UTC(y, mo - 1, d, h.h, h.min, h.s);
  if (new Date(wall).getUTCDate() !== d) return Number.NaN;
  if (timeZone === 'UTC') return wall;
  // Offsets change at most hourly: cached per hour of wall time.
  const hour = Math.floor(wall / 3_600_000);
  let off = cache.get(hour);
  if (off === undefined) {
    off = zoneOffset(wall, timeZone);
    const second = zoneOffset(wall - off, timeZone);
    if (second !== off) off = second;
    if (cache.size > 100_000) cache.clear();
    cache.set(hour, off);
  }
  return wall - off;
}

/** Bytes decoded at a time: a large inflated chunk never becomes thousands of lines at once. */
const SLICE = 64 * 1024;

/** The chat file's lines, decoded as a stream (UTF-8, BOM, CRLF), each capped in length. */
async function* lines(files: ExportFiles, path: string, limits: ImportLimits): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let partial = '';
  for await (const input of files.open(path)) {
    for (let at = 0; at < input.length; at += SLICE) {
      const chunk = input.subarray(at, at + SLICE);
      const text = partial + decoder.decode(chunk, { stream: true });
      const parts = text.split('\n');
      partial = parts.pop() as string;
      // Chars, not bytes: a char is at most 3 UTF-8 bytes in the BMP, so this caps at most 3× the limit.
      if (partial.length > limits.maxLineBytes) {
        throw new ImportFormatError('Файл чата WhatsApp повреждён: в нём строка длиннее допустимого.');
      }
      for (const p of parts) {
        if (p.length > limits.maxLineBytes) {
          throw new ImportFormatError('Файл чата WhatsApp повреждён: в нём строка длиннее допустимого.');
        }
        yield p.endsWith('\r') ? p.slice(0, -1) : p;
      }
    }
  }
  partial += decoder.decode();
  if (partial) yield partial.endsWith('\r') ? partial.slice(0, -1) : partial;
}

const SAMPLE = 5000;

async function detect(files: ExportFiles, path: string, limits: ImportLimits): Promise<Order> {
  const seen: Header[] = [];
  let nonEmpty = 0;
  for await (const line of lines(files, path, limits)) {
    const h = parseHeader(line);
    if (h) seen.push(h);
    else if (line.trim() && seen.length === 0 && ++nonEmpty > 20) break;
    if (seen.length >= SAMPLE) break;
  }
  if (seen.length === 0) {
    throw new ImportFormatError('Файл чата WhatsApp не распознан: в нём нет строк с датой и временем сообщения.');
  }
  return detectOrder(seen);
}

const ENCRYPTION_NOTICE = /сквозным шифрованием|end-to-end encrypted/i;
const OMITTED = /^<?(?:Медиафайлы удалены|Media omitted|Без медиафайлов|Медиафайл отсутствует)>?$/i;
const IOS_OMITTED: Array<[RegExp, string]> = [
  [/^(?:image omitted|изображение отсутствует)$/i, 'Фото (не экспортировано)'],
  [/^(?:video omitted|видео отсутствует)$/i, 'Видео (не экспортировано)'],
  [/^(?:audio omitted|аудиофайл отсутствует|аудио отсутствует)$/i, 'Голосовое сообщение (не экспортировано)'],
  [/^(?:sticker omitted|стикер отсутствует)$/i, 'Стикер'],
  [/^(?:GIF omitted|GIF отсутствует)$/i, 'GIF-анимация (не экспортировано)'],
  [/^(?:document omitted|документ отсутствует)$/i, 'Документ (не экспортирован)'],
  [/^(?:Contact card omitted|карточка контакта отсутствует)$/i, 'Контакт (не экспортирован)'],
];
const ATTACHED_IOS = /<(?:прикреплено|attached|вложение):\s*([^>]+)>/i;
const ATTACHED_ANDROID = /^(.+?\.[A-Za-z0-9]{1,5})\s+\((?:файл добавлен|file attached|файл прикреплён)\)$/i;
const EDITED = /\s*<(?:Это сообщение изменено|This message was edited|Сообщение изменено)>\s*$/i;

function kindOfFile(name: string): { kind: ImportedKind | 'sticker'; what: string } {
  const n = name.toUpperCase();
  if (/STICKER|^STK-|\.WEBP$/.test(n)) return { kind: 'sticker', what: 'Стикер' };
  if (/^PTT-|-AUDIO-|\.OPUS$/.test(n)) return { kind: 'voice', what: 'Голосовое сообщение' };
  if (/-PHOTO-|^IMG-|\.(JPE?G|PNG|HEIC)$/.test(n)) return { kind: 'image', what: 'Фото' };
  if (/-VIDEO-|^VID-|-GIF-|^GIF-|\.(MP4|MOV|3GP)$/.test(n)) return { kind: 'video', what: 'Видео' };
  return { kind: 'file', what: `Файл «${name}»` };
}

interface Pending {
  line: number;
  date: number;
  header: Header;
  extra: string[];
  length: number;
}

interface Ctx {
  dir: string;
  present: Set<string>;
}

/** A message with WhatsApp's markers read as formatting (./text-entities); service lines stay as written. */
function finish(p: Pending, ctx: Ctx): ImportedMessage {
  const m = finishPlain(p, ctx);
  if (m.kind === 'service' || !m.text) return m;
  const { text, entities } = readWhatsAppText(m.text);
  return entities.length ? { ...m, text, entities } : m;
}

function finishPlain(p: Pending, ctx: Ctx): ImportedMessage {
  const sourceId = String(p.line);
  const rest = p.header.rest;
  const colon = rest.indexOf(': ');
  const noAuthor = colon <= 0 || colon > 100;
  const author = noAuthor ? null : rest.slice(0, colon).trim();
  let first = noAuthor ? rest : rest.slice(colon + 2);
  const body = [first, ...p.extra].join('\n');
  if (author === null || ENCRYPTION_NOTICE.test(first)) {
    // On iPhone the notice stands under the chat's name: kept as the service line's author name.
    return { sourceId, date: p.date, authorKey: null, authorName: author ?? '', kind: 'service', text: body.trim() };
  }
  const base: ImportedMessage = {
    sourceId,
    date: p.date,
    authorKey: author,
    authorName: author,
    kind: 'text',
    text: body,
  };
  if (EDITED.test(base.text)) {
    base.text = base.text.replace(EDITED, '');
    first = first.replace(EDITED, '');
    // WhatsApp does not say when: the message's own time is the best known.
    base.editedAt = p.date;
  }
  const caption = p.extra.join('\n');
  const placeholder = (line: string, text = caption): ImportedMessage => ({
    ...base,
    kind: 'placeholder',
    text,
    placeholder: line,
  });
  const trimmed = first.trim();
  if (OMITTED.test(trimmed)) return placeholder('Медиафайл (не экспортирован)');
  for (const [re, line] of IOS_OMITTED) if (re.test(trimmed)) return placeholder(line);
  let name: string | undefined;
  let text = caption;
  const ios = ATTACHED_IOS.exec(first);
  if (ios) {
    name = ios[1].trim();
    text = [first.replace(ATTACHED_IOS, '').trim(), ...p.extra].filter(Boolean).join('\n');
  } else {
    const android = ATTACHED_ANDROID.exec(trimmed);
    if (android) name = android[1];
  }
  if (name === undefined) {
    // iPhone marks system lines inside a group with U+200E before the text, under the group's name.
    if (p.header.marked) {
      return { sourceId, date: p.date, authorKey: null, authorName: author, kind: 'service', text: body.trim() };
    }
    return base;
  }
  const { kind, what } = kindOfFile(baseName(name));
  if (kind === 'sticker') return placeholder(what, text);
  const path = name.includes('/') || name.includes('\\') ? null : joinPath(ctx.dir, name);
  if (!path || !ctx.present.has(path)) {
    return placeholder(kind === 'file' ? `${what} (не экспортирован)` : `${what} (не экспортировано)`, text);
  }
  const mime = mimeOf(name);
  return { ...base, kind, text, media: { path, name, ...(mime ? { mime } : {}) } };
}

async function* messages(
  files: ExportFiles,
  path: string,
  opts: ReadOptions & { limits?: Partial<ImportLimits> },
): AsyncGenerator<ImportedMessage> {
  const limits = withLimits(opts.limits);
  const order = await detect(files, path, limits);
  const ctx: Ctx = { dir: dirName(path), present: new Set((await files.list()).map((f) => f.path)) };
  const timeZone = opts.timeZone ?? 'UTC';
  const zoneCache = new Map<number, number>();
  let pending: Pending | null = null;
  let n = 0;
  for await (const line of lines(files, path, limits)) {
    n++;
    const h = parseHeader(line);
    const date = h ? toUtc(h, order, timeZone, zoneCache) : Number.NaN;
    if (h && Number.isFinite(date)) {
      if (pending) yield finish(pending, ctx);
      pending = {
        line: n,
        date: checkDate(date, opts.now, `в строке ${n}`),
        header: h,
        extra: [],
        length: h.rest.length,
      };
      continue;
    }
    if (!pending) continue; // text before the first message (none in a real export)
    pending.length += line.length + 1;
    if (pending.length > limits.maxLineBytes) {
      throw new ImportFormatError(`Файл чата WhatsApp повреждён: сообщение в строке ${pending.line} слишком длинное.`);
    }
    pending.extra.push(line.replace(MARKS, ''));
  }
  if (pending) yield finish(pending, ctx);
}

export async function analyseWhatsApp(
  files: ExportFiles,
  path: string,
  opts: ReadOptions & { limits?: Partial<ImportLimits> } = {},
): Promise<ExportSummary> {
  const tally = new Tally();
  let chatName = chatNameFromFile(path);
  for await (const m of messages(files, path, opts)) {
    // On iPhone the first line is the encryption notice, written under the chat's name.
    if (chatName === undefined && tally.count === 0 && m.kind === 'service' && m.authorName) {
      if (ENCRYPTION_NOTICE.test(m.text)) chatName = m.authorName;
    }
    tally.add(m);
  }
  if (tally.count === 0) throw new ImportFormatError('В экспорте нет сообщений.');
  return {
    source: 'whatsapp',
    chats: [{ id: '0', name: chatName ?? 'Чат WhatsApp', type: 'whatsapp', messageCount: tally.count }],
    authors: tally.authorList(),
    messageCount: tally.count,
    firstDate: tally.first,
    lastDate: tally.last,
  };
}

export function readWhatsApp(
  files: ExportFiles,
  path: string,
  opts: ReadOptions & { limits?: Partial<ImportLimits> } = {},
): AsyncGenerator<ImportedMessage> {
  return messages(files, path, opts);
}
