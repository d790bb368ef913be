// Pure presentation rules of the chats page (docs/behaviour.md §2, §4, §9): titles, presence texts, avatar colours,
// times, reply previews. No React here, so every rule is tested on its own.
import type { ChatSettings, Conversation, PresenceStatus, PublicUser } from './entities';

export const REPLY_PREVIEW_CHARS = 100;

/** A conversation counts as a group if flagged so or if it has more than two participants (docs/behaviour.md §3). */
export function isGroupConversation(c: Pick<Conversation, 'isGroup' | 'participants'>): boolean {
  return c.isGroup || c.participants.length > 2;
}

export const displayName = (u: Pick<PublicUser, 'displayName' | 'username'>) => u.displayName || u.username;

/** Everyone but me (a chat with oneself keeps the single participant). */
export function otherParticipants(c: Pick<Conversation, 'participants'>, meId: string | null): PublicUser[] {
  const others = c.participants.map((p) => p.user).filter((u) => u.id !== meId);
  return others;
}

/** The title of one's chat with oneself (docs/behaviour.md §10.31). */
export const SAVED_TITLE = 'Избранное';

/** «Избранное»; a group title; else the other participants' names; else 'Диалог'. */
export function conversationTitle(
  c: Pick<Conversation, 'title' | 'participants'> & { saved?: boolean },
  meId: string | null,
): string {
  if (c.saved) return SAVED_TITLE;
  if (c.title?.trim()) return c.title.trim();
  const names = otherParticipants(c, meId).map(displayName);
  return names.length ? names.join(', ') : 'Диалог';
}

/** The other side of a direct chat (null for groups and empty conversations). */
export function directPeer(c: Pick<Conversation, 'isGroup' | 'participants'>, meId: string | null): PublicUser | null {
  if (isGroupConversation(c)) return null;
  return otherParticipants(c, meId)[0] ?? null;
}

const pad = (n: number) => String(n).padStart(2, '0');
export const formatTime = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
export const formatDate = (d: Date) => `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;

/**
 * 'ОНЛАЙН' when online; a chosen away/do-not-disturb status as its label; otherwise the last-seen text of
 * docs/behaviour.md §4: 'оффлайн' without a time, minutes under an hour, hours under a day, else date and time.
 */
export function presenceText(
  u: { status: PresenceStatus; lastSeenAt: string | null },
  now: number = Date.now(),
): string {
  if (u.status === 'ONLINE') return 'ОНЛАЙН';
  if (u.status === 'AWAY') return 'Отошел';
  if (u.status === 'DND') return 'Не беспокоить';
  if (!u.lastSeenAt) return 'оффлайн';
  const seen = new Date(u.lastSeenAt);
  if (Number.isNaN(seen.getTime())) return 'оффлайн';
  const minutes = Math.max(0, Math.floor((now - seen.getTime()) / 60_000));
  if (minutes < 60) return `был(а) онлайн ${minutes} мин назад`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `был(а) онлайн ${hours} ч назад`;
  return `был(а) онлайн ${formatDate(seen)} в ${formatTime(seen)}`;
}

export type PresenceDot = 'online' | 'away' | 'offline';
/** Green online, amber away (and do-not-disturb), grey offline. */
export function presenceDot(status: PresenceStatus): PresenceDot {
  if (status === 'ONLINE') return 'online';
  if (status === 'AWAY' || status === 'DND') return 'away';
  return 'offline';
}

/** Background colours dark enough for white initials (WCAG AA contrast). */
const AVATAR_COLOURS = ['#2f57d1', '#7a3fc4', '#b3327a', '#b34a1a', '#2c7a3d', '#16707a', '#5a5fa8', '#8a5a12'];

/** A stable colour per id (FNV-1a hash). */
export function avatarColour(id: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return AVATAR_COLOURS[(h >>> 0) % AVATAR_COLOURS.length];
}

export type AvatarFace =
  | { kind: 'emoji'; emoji: string }
  | { kind: 'image'; url: string }
  | { kind: 'initials'; text: string };

/** What an avatar shows: an emoji avatar (`emoji:<char>`), an uploaded picture, or initials. */
export function avatarFace(avatarUrl: string | null | undefined, name: string): AvatarFace {
  if (avatarUrl?.startsWith('emoji:')) return { kind: 'emoji', emoji: avatarUrl.slice('emoji:'.length) };
  if (avatarUrl) return { kind: 'image', url: avatarUrl };
  return { kind: 'initials', text: initials(name) };
}

/**
 * Up to two initials, each the first letter of a word: quotes, dashes and emoji are no initials («КС» for «Команда
 * «Север»»); a name without letters takes its first digits, else «?».
 */
export function initials(name: string): string {
  const firsts = (pattern: RegExp) =>
    name
      .trim()
      .split(/\s+/)
      .map((word) => word.match(pattern)?.[0])
      .filter((c): c is string => c !== undefined)
      .slice(0, 2)
      .join('');
  return (firsts(/\p{L}/u) || firsts(/\p{N}/u) || '?').toUpperCase();
}

/** The quoted preview: at most 100 characters (code points), an ellipsis when cut. */
export function replyPreview(content: string, max = REPLY_PREVIEW_CHARS): string {
  const chars = [...content.replace(/\s+/g, ' ').trim()];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join('');
}

export const unreadText = (n: number) => `${n} непрочитанных`;

/** A chat's avatar as drawn: the face, its colour and, for a direct chat's peer, the presence dot. */
export interface AvatarView {
  face: AvatarFace;
  colour: string;
  /** Presence dot for a direct chat's peer; none for groups. */
  presence: PresenceDot | null;
}

/** «1 участник», «3 участника», «5 участников», «21 участник», «12 участников». */
export function membersText(n: number): string {
  const tens = n % 100;
  const ones = n % 10;
  const word =
    tens >= 11 && tens <= 14
      ? 'участников'
      : ones === 1
        ? 'участник'
        : ones >= 2 && ones <= 4
          ? 'участника'
          : 'участников';
  return `${n} ${word}`;
}

/** «1 ответ», «2 ответа», «5 ответов», «21 ответ», «11 ответов»: a thread's replies. */
export function repliesText(n: number): string {
  const tens = n % 100;
  const ones = n % 10;
  const word =
    tens >= 11 && tens <= 14 ? 'ответов' : ones === 1 ? 'ответ' : ones >= 2 && ones <= 4 ? 'ответа' : 'ответов';
  return `${n} ${word}`;
}

/** Whether «Без звука» is on at `now` (muted for ever, or until a time still ahead). */
export function isMuted(settings: Pick<ChatSettings, 'mutedUntil'> | undefined, now: number): boolean {
  const until = settings?.mutedUntil;
  if (!until) return false;
  return until === 'forever' || Date.parse(until) > now;
}

/** m:ss (h:mm:ss past an hour), rounded down to the second. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const SIZE_UNITS = ['Б', 'КБ', 'МБ', 'ГБ'] as const;

/** A file's size as people read it: «812 Б», «14 КБ», «2,4 МБ» (one decimal under 10, a no-break space). */
export function fileSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit > 0 && value < 10 ? 1 : 0;
  const shown = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: digits }).format(value);
  return `${shown}\u00a0${SIZE_UNITS[unit]}`;
}
