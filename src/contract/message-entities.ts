// Formatted text (docs/behaviour.md §10.42 Formatting): a message's text stays plain text, and its formatting is a
// list of typed ranges over it, as Telegram's entities are: `offset` and `length` count UTF-16 code units (as a
// JavaScript string's indices do). Search, list previews, quotes, notifications and mentions all read the plain
// text; only the timeline draws the ranges. `checkEntities` is the one judge of a list against its text, pure and
// cheap, so the server's send path pays a loop over a few ranges and nothing else.
export const ENTITY_TYPES = [
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'code',
  'pre',
  'spoiler',
  'blockquote',
  'text_link',
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface MessageEntity {
  type: EntityType;
  offset: number;
  length: number;
  /** pre only: the code's language as its author named it («ts», «python»). */
  language?: string;
  /** text_link only: where the link leads (http, https or mailto). */
  url?: string;
}

/** Ranges one message may carry. */
export const ENTITIES_MAX = 500;
export const ENTITY_URL_MAX = 2048;
export const ENTITY_LANGUAGE_MAX = 32;

export const BAD_FORMATTING = 'Неверное форматирование текста';

/** A range as a request carries it (its schema: EntityInput in ./api/messages); checkEntities judges the rest. */
export interface EntityInput {
  type: string;
  offset: number;
  length: number;
  language?: string;
  url?: string;
}

const KNOWN = new Set<string>(ENTITY_TYPES);
const LANGUAGE = /^[\w#+.-]+$/;

/** A link's address as stored: http(s) with a host, or mailto; else null. */
export function entityUrl(url: string): string | null {
  if (url.length > ENTITY_URL_MAX) return null;
  try {
    const u = new URL(url.trim());
    if (u.protocol === 'mailto:') return u.pathname ? u.href : null;
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? u.href : null;
  } catch {
    return null;
  }
}

/** True when index i of the text falls between the two halves of a surrogate pair (an emoji, say). */
const splitsPair = (text: string, i: number) => {
  if (i <= 0 || i >= text.length) return false;
  const lo = text.charCodeAt(i);
  const hi = text.charCodeAt(i - 1);
  return lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff;
};

const isCode = (t: string) => t === 'code' || t === 'pre';

export type EntitiesCheck = { ok: true; entities: MessageEntity[] } | { ok: false; message: string };

/**
 * The ranges as stored (sorted by offset, the outer of two at one offset first, only their own fields), or the
 * Russian sentence that refuses them: a range must lie inside the text and not be empty, cut no character in
 * half, be of a known type, cross no other range (nesting is fine) and hold nothing inside code; a link needs an
 * http(s) or mailto address, and only a code block names a language.
 */
export function checkEntities(text: string, input: readonly EntityInput[]): EntitiesCheck {
  if (input.length > ENTITIES_MAX)
    return { ok: false, message: `Не больше ${ENTITIES_MAX} участков форматирования в сообщении` };
  const out: MessageEntity[] = [];
  for (const e of input) {
    if (!KNOWN.has(e.type)) return { ok: false, message: 'Неизвестный вид форматирования текста' };
    const { offset, length } = e;
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0)
      return { ok: false, message: BAD_FORMATTING };
    if (length === 0) return { ok: false, message: 'Участок форматирования не может быть пустым' };
    if (offset + length > text.length) return { ok: false, message: 'Форматирование выходит за пределы текста' };
    if (splitsPair(text, offset) || splitsPair(text, offset + length))
      return { ok: false, message: 'Форматирование не может разрезать символ пополам' };
    const entity: MessageEntity = { type: e.type as EntityType, offset, length };
    if (e.type === 'text_link') {
      const url = e.url === undefined ? null : entityUrl(e.url);
      if (!url) return { ok: false, message: 'Ссылка должна вести на адрес http://, https:// или mailto:' };
      entity.url = url;
    } else if (e.url !== undefined) return { ok: false, message: 'Адрес бывает только у ссылки' };
    if (e.language !== undefined && e.language !== '') {
      if (e.type !== 'pre') return { ok: false, message: 'Язык указывают только у блока кода' };
      if (e.language.length > ENTITY_LANGUAGE_MAX || !LANGUAGE.test(e.language))
        return { ok: false, message: 'Неверное название языка у блока кода' };
      entity.language = e.language;
    }
    out.push(entity);
  }
  // Outer before inner: by offset, then the longer first (of two alike, code inside the other); a stack of the
  // ranges still open finds a crossing.
  out.sort((a, b) => a.offset - b.offset || b.length - a.length || Number(isCode(a.type)) - Number(isCode(b.type)));
  const open: MessageEntity[] = [];
  for (const e of out) {
    while (open.length && (open.at(-1) as MessageEntity).offset + (open.at(-1) as MessageEntity).length <= e.offset)
      open.pop();
    const parent = open.at(-1);
    if (parent) {
      if (e.offset + e.length > parent.offset + parent.length)
        return { ok: false, message: 'Участки форматирования пересекаются, а не вложены друг в друга' };
      if (isCode(parent.type)) return { ok: false, message: 'Внутри кода другое форматирование не допускается' };
    }
    open.push(e);
  }
  return { ok: true, entities: out };
}

/**
 * The ranges of a text whose surrounding white space is then trimmed (the server stores the trimmed text): moved
 * by what the start lost, clipped to what is left, those left empty dropped. Nesting survives clipping.
 */
export function trimEntities(text: string, entities: readonly MessageEntity[]): MessageEntity[] {
  const lead = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  if (lead === 0 && end === text.length) return entities as MessageEntity[];
  const out: MessageEntity[] = [];
  for (const e of entities) {
    const s = Math.max(e.offset, lead);
    const f = Math.min(e.offset + e.length, end);
    if (f > s) out.push({ ...e, offset: s - lead, length: f - s });
  }
  return out;
}
