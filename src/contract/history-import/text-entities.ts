// Telegram's `text`: a plain string, or an array of plain strings and entities ({type, text, href?, user_id?, …}).
// Read as plain text plus the message's formatting (docs/behaviour.md §10.42 Formatting): bold, italic, underline,
// strikethrough, spoiler, code, pre, quotes and links under other words become ranges; links, mentions and the rest
// stay readable as text. A link whose address this app would not open keeps its address in the text instead.
import { checkEntities, type EntityType, entityUrl, type MessageEntity } from '../message-entities';
import { withoutCuts } from '../text-markup';
import type { JsonValue } from './json-stream';

/** Entity kinds whose text alone says everything (the rest are formatting, also shown as their text). */
export const telegramEntityTypes = [
  'plain',
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'spoiler',
  'code',
  'pre',
  'blockquote',
  'expandable_blockquote',
  'link',
  'text_link',
  'mention',
  'mention_name',
  'hashtag',
  'cashtag',
  'bot_command',
  'email',
  'phone',
  'bank_card',
  'custom_emoji',
] as const;

/** Telegram's formatting kinds and the range each becomes here. */
const FORMATTING: Record<string, EntityType> = {
  bold: 'bold',
  italic: 'italic',
  underline: 'underline',
  strikethrough: 'strikethrough',
  spoiler: 'spoiler',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
  expandable_blockquote: 'blockquote',
};

export interface ImportedText {
  text: string;
  entities: MessageEntity[];
}

export function readTelegramText(text: JsonValue | undefined): ImportedText {
  if (typeof text === 'string') return { text, entities: [] };
  if (!Array.isArray(text)) return { text: '', entities: [] };
  let out = '';
  const entities: MessageEntity[] = [];
  for (const part of text) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    if (!part || typeof part !== 'object' || Array.isArray(part)) continue;
    const t = typeof part.text === 'string' ? part.text : '';
    const offset = out.length;
    const type = typeof part.type === 'string' ? FORMATTING[part.type] : undefined;
    if (part.type === 'text_link' && typeof part.href === 'string' && part.href !== t && part.href !== '') {
      const url = t ? entityUrl(part.href) : null;
      if (url) {
        out += t;
        entities.push({ type: 'text_link', offset, length: t.length, url });
      } else {
        // An address this app would not open stays readable: the words alone would lose where it pointed.
        out += t ? `${t} (${part.href})` : part.href;
      }
      continue;
    }
    out += t;
    if (type && t) {
      const language = type === 'pre' && typeof part.language === 'string' ? part.language : '';
      entities.push({ type, offset, length: t.length, ...(language ? { language } : {}) });
    }
  }
  if (!entities.length) return { text: out, entities };
  // An export's language names or ranges this app would refuse lose the formatting, never the text.
  const checked = checkEntities(
    out,
    entities.map((e) =>
      e.language && checkEntities(out, [e]).ok === false ? { type: e.type, offset: e.offset, length: e.length } : e,
    ),
  );
  return { text: out, entities: checked.ok ? checked.entities : [] };
}

/** The plain text alone. */
export const flattenTelegramText = (text: JsonValue | undefined): string => readTelegramText(text).text;

const WHATSAPP: Record<string, EntityType> = { '*': 'bold', _: 'italic', '~': 'strikethrough' };
const WORD = /[\p{L}\p{N}]/u;

/**
 * WhatsApp's markers in an exported text: *жирный*, _курсив_, ~зачёркнутый~ (within a line, the opening one after a
 * space or the line's start and touching its words, the closing one touching them and not followed by a letter or
 * digit), and ```моноширинный``` (a block when it spans lines). Markers that do not pair stay text.
 */
export function readWhatsAppText(src: string): ImportedText {
  if (!/[*_~`]/.test(src)) return { text: src, entities: [] };
  const cut: [number, number][] = [];
  const spans: { type: EntityType; from: number; to: number }[] = [];
  let open: { marker: string; at: number }[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === '\n') open = [];
    if (src.startsWith('```', i)) {
      const j = src.indexOf('```', i + 3);
      if (j > i + 3) {
        cut.push([i, i + 3], [j, j + 3]);
        spans.push({ type: src.slice(i + 3, j).includes('\n') ? 'pre' : 'code', from: i + 3, to: j });
        open = [];
        i = j + 3;
        continue;
      }
    }
    if (WHATSAPP[c]) {
      const k = open.findIndex((o) => o.marker === c);
      const prev = src[i - 1];
      const next = src[i + 1];
      if (k >= 0 && prev && !/\s/.test(prev) && !(next && WORD.test(next)) && i > (open[k] as { at: number }).at + 1) {
        const from = (open[k] as { at: number }).at;
        open.length = k;
        cut.push([from, from + 1], [i, i + 1]);
        spans.push({ type: WHATSAPP[c] as EntityType, from: from + 1, to: i });
      } else if ((!prev || !WORD.test(prev)) && next && !/\s/.test(next)) open.push({ marker: c, at: i });
    }
    i += 1;
  }
  if (!spans.length) return { text: src, entities: [] };
  const { text, at } = withoutCuts(src, cut);
  const entities = spans
    .map((s) => ({ type: s.type, offset: at[s.from] as number, length: (at[s.to] as number) - (at[s.from] as number) }))
    .filter((e) => e.length > 0);
  const checked = checkEntities(text, entities);
  return checked.ok ? { text, entities: checked.entities } : { text: src, entities: [] };
}
