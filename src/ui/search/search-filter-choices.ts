// What the filter chips offer, from the chats list: the people of the user's chats and the chats themselves by
// name, and `от:имя` / `в:чат` typed in the field resolved against them. Pure.
import type { ConversationEntry } from '../../contract/entities';
import { conversationTitle, displayName } from '../../contract/format';
import type { SearchKind } from '../../contract/local-day';
import type { SearchFilters } from '../../machines/search/search/search.protocol';
import { foldName } from './name-matches';

/** The «Тип» chip's choices, in its order. */
export const KIND_LABELS: Record<SearchKind, string> = {
  photo: 'Фото',
  file: 'Файлы',
  link: 'Ссылки',
  voice: 'Голосовые',
};

/**
 * `от:имя` and `в:чат` typed in the field, each ended by a space: the names, and the text without them.
 * A name is one word; the view resolves it to a person or a chat (and sends `search.filter`).
 */
export function filterTokens(text: string): { text: string; from: string | null; chat: string | null } {
  let from: string | null = null;
  let chat: string | null = null;
  const rest = text.replace(/(^|\s)(от|в):(\S+)(?=\s)/giu, (_whole, lead: string, key: string, name: string) => {
    if (key.toLowerCase() === 'от') from = name;
    else chat = name;
    return lead;
  });
  if (from === null && chat === null) return { text, from, chat };
  return { text: rest.replace(/^\s+/, '').replace(/\s{2,}/g, ' '), from, chat };
}

export interface FilterChoices {
  people: { id: string; name: string }[];
  chats: { id: string; title: string }[];
}

export function filterChoices(entries: readonly ConversationEntry[], me: string | null): FilterChoices {
  const people = new Map<string, string>();
  const chats: FilterChoices['chats'] = [];
  for (const e of entries) {
    // A secret chat's messages are on the devices only: the server's filters cannot reach them.
    if (e.conversation.secret) continue;
    chats.push({ id: e.conversation.id, title: conversationTitle(e.conversation, me) });
    for (const p of e.conversation.participants) if (!people.has(p.user.id)) people.set(p.user.id, displayName(p.user));
  }
  return {
    people: [...people].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name, 'ru')),
    chats,
  };
}

/** The choices whose name contains `text` (case, «ё» and spaces aside). */
export function matching<T>(list: readonly T[], name: (t: T) => string, text: string): T[] {
  const q = foldName(text);
  return q ? list.filter((t) => foldName(name(t)).includes(q)) : [...list];
}

/**
 * `от:имя` / `в:чат` in the query: the filters they name (the first person or chat whose name contains the word)
 * and the text without them; null when nothing typed resolves.
 */
export function typedFilters(
  query: string,
  choices: FilterChoices,
): { text: string; filters: Partial<SearchFilters> } | null {
  const t = filterTokens(query);
  const filters: Partial<SearchFilters> = {};
  if (t.from !== null) {
    const person = matching(choices.people, (p) => p.name, t.from)[0];
    if (person) filters.from = person;
  }
  if (t.chat !== null) {
    const chat = matching(choices.chats, (c) => c.title, t.chat)[0];
    if (chat) filters.chat = chat;
  }
  return filters.from || filters.chat ? { text: t.text, filters } : null;
}
