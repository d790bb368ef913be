// A secret chat's «Медиа», «Файлы», «Ссылки», «Голосовые» (docs/behaviour.md §10.46), from the messages this browser
// decrypted and keeps (secretChats/crypto/secret-store.ts): the server has only ciphertext. A message deleted for
// everyone has left the store; an edit's text is the one shown. Newest first by the server's message id (a UUIDv7,
// which grows with its time), a page at a time from the id before which the last page ended.
import { httpLinks } from '../../contract/http-links';
import type {
  ChatMediaEntry,
  ChatMediaKind,
  ChatMediaPage,
} from '../../machines/conversationInfo/chatMedia/chatMedia.protocol';
import type { SecretAttachment } from '../../machines/secretChats/secretChat/secretChat.protocol';
import type { SecretPlaintext } from '../secretChats/crypto/secret-crypto';

const isPicture = (a: SecretAttachment) => a.type.startsWith('image/') && !a.voice;

/** The time a UUIDv7 carries (its first 48 bits, in ms). */
export function idTime(id: string): string {
  const ms = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : new Date(0).toISOString();
}

function entryOf(p: SecretPlaintext, kind: ChatMediaKind): ChatMediaEntry | null {
  const e = p.envelope;
  // Edits, reactions and deletions are applied to their message, not shown (a copy kept fills its target's text).
  if (e.kind !== 'text') return null;
  const text = p.actions?.edit?.text ?? e.text;
  const attachments = e.attachments ?? [];
  const pictures = attachments.filter(isPicture);
  const voices = attachments.filter((a) => a.voice);
  const files = attachments.filter((a) => !isPicture(a) && !a.voice);
  const links = kind === 'links' ? httpLinks(text) : [];
  const wanted = { media: pictures, files, voice: voices, links }[kind];
  if (wanted.length === 0) return null;
  return {
    messageId: p.messageId,
    createdAt: idTime(p.messageId),
    senderId: p.senderUserId,
    pictures: kind === 'media' ? pictures.map((a) => ({ url: a.url, name: a.name, secret: a })) : [],
    files: (kind === 'voice' ? voices : kind === 'files' ? files : []).map((a) => ({ name: a.name, size: a.size })),
    links,
    text,
    durationMs: kind === 'voice' ? (voices[0]?.voice?.durationMs ?? null) : null,
  };
}

export function secretMediaPage(
  plaintexts: readonly SecretPlaintext[],
  r: { kind: ChatMediaKind; before: string | null },
  size: number,
): ChatMediaPage {
  const newest = [...plaintexts]
    .filter((p) => r.before === null || p.messageId < r.before)
    .sort((a, b) => (a.messageId < b.messageId ? 1 : a.messageId > b.messageId ? -1 : 0));
  const entries: ChatMediaEntry[] = [];
  for (const p of newest) {
    const entry = entryOf(p, r.kind);
    if (!entry) continue;
    if (entries.length === size) return { entries, nextBefore: entries[entries.length - 1]?.messageId ?? null };
    entries.push(entry);
  }
  return { entries, nextBefore: null };
}
