// Telegram's `text`: a plain string, or an array of plain strings and entities ({type, text, href?, user_id?, …}).
// Flattened to plain text: formatting is dropped, links and mentions stay readable as text.
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

export function flattenTelegramText(text: JsonValue | undefined): string {
  if (typeof text === 'string') return text;
  if (!Array.isArray(text)) return '';
  let out = '';
  for (const part of text) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    if (!part || typeof part !== 'object' || Array.isArray(part)) continue;
    const t = typeof part.text === 'string' ? part.text : '';
    // A link under other words keeps its address: the words alone would lose where it pointed.
    if (part.type === 'text_link' && typeof part.href === 'string' && part.href !== t && part.href !== '') {
      out += t ? `${t} (${part.href})` : part.href;
    } else {
      out += t;
    }
  }
  return out;
}
