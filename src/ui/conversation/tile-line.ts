// What a chat tile says about its latest message (docs/behaviour.md §10.17): a one-line preview
// in words for every kind of message, who wrote it in a group, its time, and one's own message's read mark.
// Pure, tested in tile-line.test.ts.
import type { Message, PublicUser } from '../../contract/entities';
import { displayName, formatTime } from '../../contract/format';
import { isReadByOthers } from '../../machines/conversation/conversation/read-mark';
import { entryPreview } from './voice-call-text';

/** Characters of text a tile keeps (CSS cuts the line to the tile's width; this bounds the work). */
export const TILE_PREVIEW_CHARS = 100;

const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > TILE_PREVIEW_CHARS ? `${chars.slice(0, TILE_PREVIEW_CHARS - 1).join('')}…` : flat;
};

/** The message in words: its text; «Фото» / «Файл: name» (with a caption after a comma); voice, call, system. */
export function messageWords(m: Message, me: string | null): string {
  const special = entryPreview(m, me);
  if (special !== null) return special;
  // Ciphertext says nothing: the chat list shows the text once this device has read it (SecretTilePreview).
  if (m.type === 'ENCRYPTED') return 'Зашифрованное сообщение';
  const caption = oneLine(m.content);
  if (m.type === 'IMAGE') return caption ? `Фото, ${caption}` : 'Фото';
  if (m.type === 'FILE') {
    const name = m.attachments[0]?.name ?? 'файл';
    const files = m.attachments.length > 1 ? `Файлы: ${m.attachments.length}` : `Файл: ${name}`;
    return caption ? `${files}, ${caption}` : files;
  }
  return caption;
}

export interface TileLine {
  /** «Вы» or the sender's name before the text in a group; null in a direct chat and for entries in words. */
  sender: string | null;
  text: string;
}

/** The latest message's line; null when there is none. */
export function tileLine(
  m: Message | undefined,
  me: string | null,
  isGroup: boolean,
  people: Pick<PublicUser, 'id' | 'displayName' | 'username'>[],
): TileLine | null {
  if (!m) return null;
  const text = messageWords(m, me);
  // CALL and SYSTEM entries already name who did what.
  if (!isGroup || m.type === 'CALL' || m.type === 'SYSTEM') return { sender: null, text };
  if (m.senderId === me) return { sender: 'Вы', text };
  const who = people.find((p) => p.id === m.senderId);
  return { sender: who ? displayName(who) : 'Удалённый аккаунт', text };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** hh:mm today, «вчера», else the date (dd.mm, with the year when it is not this year's). */
export function tileTime(iso: string | undefined, now: number): string | null {
  if (!iso) return null;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const today = new Date(now);
  const sameDay = (a: Date, b: Date) =>
    a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  if (sameDay(at, today)) return formatTime(at);
  if (sameDay(at, new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1))) return 'вчера';
  const date = `${pad(at.getDate())}.${pad(at.getMonth() + 1)}`;
  return at.getFullYear() === today.getFullYear() ? date : `${date}.${String(at.getFullYear()).slice(-2)}`;
}

/** One's own latest message: '✓' once someone else read it (docs/behaviour.md §2), 'sent' before; null otherwise. */
export function tileMark(m: Message | undefined, me: string | null): 'read' | 'sent' | null {
  if (!m || m.senderId !== me || m.type === 'SYSTEM' || m.type === 'CALL') return null;
  return isReadByOthers(m) ? 'read' : 'sent';
}
