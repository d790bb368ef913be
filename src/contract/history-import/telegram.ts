// Telegram Desktop's «Экспорт истории чата» in machine-readable JSON: `result.json` with the chat's `messages`, or a
// whole-account export with `chats.list` (and `left_chats.list`), each chat with its own `messages`. Read as a stream:
// only one message is ever built at a time.
import { baseName, checkDate, dirName, joinPath, mimeOf, type ReadOptions, Tally } from './common';
import { type JsonValue, JsonStream, type PathSegment } from './json-stream';
import { type ImportLimits, withLimits } from './limits';
import { readTelegramText } from './text-entities';
import {
  type ExportedChat,
  type ExportFiles,
  type ExportSummary,
  type ImportedMessage,
  ImportFormatError,
} from './types';
import { safeArchivePath } from './zip';

type Obj = { [key: string]: JsonValue };

/** What Telegram writes in place of a path when the export left that media out. */
export const NOT_INCLUDED_PREFIX = '(File not included.';

const SLICE = 64 * 1024;
const CHAT_FIELDS = new Set(['id', 'name', 'type']);
const CHAT_LISTS = new Set(['chats', 'left_chats']);

/**
 * Which parts of result.json are built: a chat's id, name and type, and its messages one at a time; everything else
 * (contacts, sessions, profile pictures) is scanned past.
 */
function select(path: readonly PathSegment[]): 'build' | 'descend' | 'skip' {
  const n = path.length;
  if (n === 0) return 'descend';
  // Single-chat export: {name, type, id, messages: [...]}.
  if (n === 1 && typeof path[0] === 'number') {
    throw new ImportFormatError('result.json — не экспорт Telegram: ожидался JSON-объект.');
  }
  if (n === 1)
    return path[0] === 'messages'
      ? 'descend'
      : CHAT_FIELDS.has(path[0] as string)
        ? 'build'
        : CHAT_LISTS.has(path[0] as string)
          ? 'descend'
          : 'skip';
  if (path[0] === 'messages') return n === 2 ? 'build' : 'skip';
  // Account export: {chats: {list: [{name, type, id, messages: [...]}]}}.
  if (!CHAT_LISTS.has(path[0] as string)) return 'skip';
  if (n === 2) return path[1] === 'list' ? 'descend' : 'skip';
  if (path[1] !== 'list') return 'skip';
  if (n === 3) return 'descend';
  if (n === 4) return path[3] === 'messages' ? 'descend' : CHAT_FIELDS.has(path[3] as string) ? 'build' : 'skip';
  if (n === 5 && path[3] === 'messages') return 'build';
  return 'skip';
}

interface ChatState {
  key: string; // `${list}:${index}`
  id?: string;
  name?: string;
  type?: string;
  count: number;
}

/** One raw message with the chat it belongs to, in file order. */
interface Raw {
  chat: ChatState;
  message: Obj;
}

/** Streams result.json, handing over each chat's fields and each raw message. */
async function* scan(files: ExportFiles, jsonPath: string, limits: ImportLimits): AsyncGenerator<Raw | ChatState> {
  const chats = new Map<string, ChatState>();
  const single: ChatState = { key: 'single', count: 0 };
  let out: Array<Raw | ChatState> = [];
  let sawMessages = false;
  const chatOf = (path: readonly PathSegment[]): ChatState => {
    if (path[0] === 'messages' || path.length === 1) return single;
    const key = `${path[0]}:${path[2]}`;
    let c = chats.get(key);
    if (!c) {
      c = { key, count: 0 };
      chats.set(key, c);
      out.push(c);
    }
    return c;
  };
  const parser = new JsonStream({
    maxDepth: limits.maxDepth,
    maxTokenBytes: limits.maxLineBytes,
    select,
    onValue(path, value) {
      const chat = chatOf(path);
      const field = path[path.length - 1];
      if (typeof field === 'number') {
        if (!value || typeof value !== 'object' || Array.isArray(value)) {
          throw new ImportFormatError('Файл экспорта повреждён: сообщение записано не объектом.');
        }
        sawMessages = true;
        chat.count++;
        out.push({ chat, message: value });
      } else if (field === 'id' || field === 'name' || field === 'type') {
        const v = value === null ? '' : typeof value === 'object' ? '' : String(value);
        chat[field] = v;
      }
    },
  });
  for await (const chunk of files.open(jsonPath)) {
    // In slices, so that a large inflated chunk never turns into thousands of messages waiting at once.
    for (let at = 0; at < chunk.length; at += SLICE) {
      parser.write(chunk.subarray(at, at + SLICE));
      if (out.length) {
        const ready = out;
        out = [];
        yield* ready;
      }
    }
  }
  parser.end();
  if (!sawMessages && chats.size === 0 && single.name === undefined) {
    throw new ImportFormatError('result.json — не экспорт истории чата Telegram: в нём нет сообщений.');
  }
  if (chats.size === 0) yield single;
}

function chatId(c: ChatState): string {
  if (c.key === 'single') return '0';
  return c.id ? c.id : `#${c.key}`;
}

function str(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function unixMs(v: JsonValue | undefined): number | undefined {
  const s = str(v);
  if (s === undefined || !/^\d{1,12}$/.test(s)) return undefined;
  return Number(s) * 1000;
}

/** Telegram's `date` without `date_unixtime` (exports before 2021): local wall-clock time, read as UTC. */
function isoMs(v: JsonValue | undefined): number | undefined {
  const s = str(v);
  if (!s || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(s)) return undefined;
  return Date.parse(`${s}Z`);
}

const SERVICE_TEXT: Record<string, (m: Obj) => string> = {
  create_group: (m) => `Создана группа «${str(m.title) ?? ''}»`,
  create_channel: (m) => `Создан канал «${str(m.title) ?? ''}»`,
  migrate_to_supergroup: () => 'Группа преобразована в супергруппу',
  migrate_from_group: (m) => `Супергруппа создана из группы «${str(m.title) ?? ''}»`,
  invite_members: (m) => `В группу добавлены: ${names(m.members)}`,
  remove_members: (m) => `Из группы удалены: ${names(m.members)}`,
  join_group_by_link: () => 'Вступление в группу по ссылке',
  join_group_by_request: () => 'Вступление в группу по заявке',
  edit_group_title: (m) => `Название группы изменено: «${str(m.title) ?? ''}»`,
  edit_group_photo: () => 'Фото группы изменено',
  delete_group_photo: () => 'Фото группы удалено',
  pin_message: () => 'Сообщение закреплено',
  clear_history: () => 'История очищена',
  phone_call: (m) => callText('Звонок', m),
  group_call: (m) => callText('Групповой звонок', m),
  invite_to_group_call: () => 'Приглашение в групповой звонок',
  set_messages_ttl: () => 'Изменён таймер автоудаления сообщений',
  score_in_game: (m) => `Результат в игре: ${str(m.score) ?? ''}`,
  topic_created: (m) => `Создана тема «${str(m.title) ?? ''}»`,
  topic_edit: () => 'Тема изменена',
  suggest_profile_photo: () => 'Предложено фото профиля',
  gift_premium: () => 'Подарок: Telegram Premium',
  set_chat_theme: () => 'Изменена тема оформления чата',
  allow_sending_messages: () => 'Разрешены сообщения от бота',
  screenshot_taken: () => 'Сделан снимок экрана',
};

function names(v: JsonValue | undefined): string {
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '—')).join(', ') : '';
}

function callText(what: string, m: Obj): string {
  const s =
    typeof m.duration_seconds === 'number'
      ? m.duration_seconds
      : typeof m.duration === 'number'
        ? m.duration
        : undefined;
  if (s === undefined) return m.discard_reason === 'missed' ? `${what} пропущен` : what;
  const min = Math.floor(s / 60);
  const sec = Math.round(s % 60);
  return `${what} (${min ? `${min} мин ` : ''}${sec} с)`;
}

const MEDIA_NAMES: Record<string, string> = {
  voice_message: 'Голосовое сообщение',
  video_file: 'Видео',
  video_message: 'Видеосообщение',
  audio_file: 'Аудиофайл',
  animation: 'GIF-анимация',
  sticker: 'Стикер',
};

/** Turns one raw message into the shared shape, or throws a Russian error naming it. */
export function normaliseTelegram(m: Obj, ctx: { dir: string; present: Set<string>; now?: number }): ImportedMessage {
  const sourceId = str(m.id);
  if (sourceId === undefined) throw new ImportFormatError('Файл экспорта повреждён: у сообщения нет номера.');
  const where = `№ ${sourceId}`;
  const date = checkDate(unixMs(m.date_unixtime) ?? isoMs(m.date) ?? Number.NaN, ctx.now, where);
  const { text, entities } = readTelegramText(m.text);
  const edited = unixMs(m.edited_unixtime) ?? isoMs(m.edited);

  if (m.type === 'service') {
    const action = str(m.action) ?? '';
    const say = SERVICE_TEXT[action];
    return {
      sourceId,
      date,
      authorKey: null,
      authorName: str(m.actor) ?? '',
      kind: 'service',
      text: say ? say(m) : text || 'Служебное сообщение',
    };
  }

  const fromName = str(m.from);
  const authorKey = str(m.from_id) ?? (fromName ? `name:${fromName}` : 'deleted');
  const base: ImportedMessage = {
    sourceId,
    date,
    authorKey,
    authorName: fromName || 'Удалённый аккаунт',
    kind: 'text',
    text,
    ...(entities.length ? { entities } : {}),
  };
  // A reply to a message of another chat (`reply_to_peer_id`) has nothing here to point at.
  const reply = str(m.reply_to_message_id);
  if (reply !== undefined && m.reply_to_peer_id === undefined) base.replyToSourceId = reply;
  if (edited !== undefined && Number.isFinite(edited)) base.editedAt = edited;

  const placeholder = (line: string): ImportedMessage => ({ ...base, kind: 'placeholder', placeholder: line });
  /** The file the message points at, if the export holds it. */
  const file = (v: JsonValue | undefined): string | null => {
    const p = str(v);
    if (!p || p.startsWith(NOT_INCLUDED_PREFIX)) return null;
    let safe: string | null;
    try {
      safe = safeArchivePath(p);
    } catch {
      throw new ImportFormatError(`Файл экспорта повреждён: сообщение ${where} ссылается на файл вне экспорта.`);
    }
    if (safe === null) return null;
    const full = joinPath(ctx.dir, safe);
    return ctx.present.has(full) ? full : null;
  };

  if (m.photo !== undefined) {
    const path = file(m.photo);
    if (!path) return placeholder('Фото (не экспортировано)');
    return { ...base, kind: 'image', media: { path, name: baseName(path), mime: mimeOf(path) ?? 'image/jpeg' } };
  }
  if (m.file !== undefined) {
    const mediaType = str(m.media_type);
    const what = mediaType ? MEDIA_NAMES[mediaType] : undefined;
    if (mediaType === 'sticker') {
      const emoji = str(m.sticker_emoji);
      return placeholder(emoji ? `Стикер ${emoji}` : 'Стикер');
    }
    const path = file(m.file);
    const name = str(m.file_name) ?? (path ? baseName(path) : '');
    if (!path) {
      if (what) return placeholder(`${what} (не экспортировано)`);
      return placeholder(name ? `Файл «${name}» (не экспортирован)` : 'Файл (не экспортирован)');
    }
    const mime = str(m.mime_type) ?? mimeOf(path);
    const media = { path, name: name || baseName(path), ...(mime ? { mime } : {}) };
    if (mediaType === 'voice_message') return { ...base, kind: 'voice', media };
    if (mediaType === 'video_file' || mediaType === 'video_message' || mediaType === 'animation') {
      return { ...base, kind: 'video', media };
    }
    return { ...base, kind: 'file', media };
  }
  if (m.poll && typeof m.poll === 'object' && !Array.isArray(m.poll)) {
    const poll = m.poll as Obj;
    const answers = Array.isArray(poll.answers)
      ? poll.answers
          .map((a) =>
            a && typeof a === 'object' && !Array.isArray(a) ? `${str(a.text) ?? ''} (${str(a.voters) ?? 0})` : '',
          )
          .join(', ')
      : '';
    return placeholder(`Опрос «${str(poll.question) ?? ''}»${answers ? `: ${answers}` : ''}`);
  }
  if (m.location_information && typeof m.location_information === 'object' && !Array.isArray(m.location_information)) {
    const loc = m.location_information as Obj;
    const at = `${str(loc.latitude) ?? '?'}, ${str(loc.longitude) ?? '?'}`;
    const place = [str(m.place_name), str(m.address)].filter(Boolean).join(', ');
    if (m.live_location_period_seconds !== undefined) return placeholder(`Трансляция геопозиции: ${at}`);
    return placeholder(place ? `Место: ${place} (${at})` : `Геопозиция: ${at}`);
  }
  if (m.contact_information && typeof m.contact_information === 'object' && !Array.isArray(m.contact_information)) {
    const c = m.contact_information as Obj;
    const who = [str(c.first_name), str(c.last_name)].filter(Boolean).join(' ');
    const phone = str(c.phone_number);
    return placeholder(`Контакт: ${[who, phone].filter(Boolean).join(', ') || '—'}`);
  }
  if (m.game_title !== undefined) return placeholder(`Игра «${str(m.game_title) ?? ''}»`);
  if (m.invoice_information !== undefined) return placeholder('Счёт на оплату');
  if (m.dice !== undefined) return placeholder('Игральный кубик');
  if (m.media_type !== undefined) {
    const what = MEDIA_NAMES[str(m.media_type) ?? ''];
    return placeholder(what ? `${what} (не экспортировано)` : 'Вложение, которое не поддерживается');
  }
  if (!text) return placeholder('Сообщение, которое не поддерживается');
  return base;
}

/** The export's result.json: the one nearest the archive's root. */
export function findTelegramJson(paths: string[]): string | undefined {
  const candidates = paths.filter((p) => baseName(p) === 'result.json');
  candidates.sort((a, b) => a.split('/').length - b.split('/').length || a.length - b.length);
  return candidates[0];
}

export async function analyseTelegram(
  files: ExportFiles,
  jsonPath: string,
  opts: ReadOptions & { limits?: Partial<ImportLimits> } = {},
): Promise<ExportSummary> {
  const limits = withLimits(opts.limits);
  const ctx = await context(files, jsonPath, opts.now);
  const chats: ChatState[] = [];
  const tallies = new Map<ChatState, Tally>();
  const all = new Tally();
  for await (const item of scan(files, jsonPath, limits)) {
    if (!('message' in item)) {
      chats.push(item);
      continue;
    }
    // Every message is read through, so a broken or future-dated one is refused now, before anything is stored.
    const m = normaliseTelegram(item.message, ctx);
    let t = tallies.get(item.chat);
    if (!t) {
      t = new Tally();
      tallies.set(item.chat, t);
    }
    t.add(m);
    all.add(m);
  }
  const exported: ExportedChat[] = chats.map((c) => ({
    id: chatId(c),
    name: c.name || 'Чат без названия',
    type: c.type || 'unknown',
    messageCount: c.count,
  }));
  let chosen: Tally | undefined;
  if (opts.chatId !== undefined) {
    const c = chats.find((x) => chatId(x) === opts.chatId);
    if (!c) throw new ImportFormatError('В экспорте нет выбранного чата.');
    chosen = tallies.get(c) ?? new Tally();
  } else if (chats.length === 1) {
    chosen = tallies.get(chats[0]) ?? new Tally();
  }
  const t = chosen ?? all;
  if (t.count === 0) throw new ImportFormatError('В экспорте нет сообщений.');
  return {
    source: 'telegram',
    chats: exported,
    // Authors are listed for one chat: an account export's importer chooses the chat first.
    authors: chosen ? chosen.authorList() : [],
    messageCount: t.count,
    firstDate: t.first,
    lastDate: t.last,
  };
}

export async function* readTelegram(
  files: ExportFiles,
  jsonPath: string,
  opts: ReadOptions & { limits?: Partial<ImportLimits> } = {},
): AsyncGenerator<ImportedMessage> {
  const limits = withLimits(opts.limits);
  const ctx = await context(files, jsonPath, opts.now);
  let onlyChat: ChatState | undefined;
  for await (const item of scan(files, jsonPath, limits)) {
    if (!('message' in item)) continue;
    if (opts.chatId !== undefined) {
      if (chatId(item.chat) !== opts.chatId) continue;
    } else if (item.chat.key !== 'single') {
      // An account export without a chosen chat is read only while it holds one chat (the analysis says which).
      onlyChat ??= item.chat;
      if (item.chat !== onlyChat) {
        throw new ImportFormatError('В экспорте несколько чатов: выберите, какой импортировать.');
      }
    }
    yield normaliseTelegram(item.message, ctx);
  }
}

async function context(files: ExportFiles, jsonPath: string, now?: number) {
  const present = new Set((await files.list()).map((f) => f.path));
  return { dir: dirName(jsonPath), present, now };
}
