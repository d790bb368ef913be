// How one's chat settings read (chat-settings.ts writes them): shared by the list, the push path and the routes.
import type { ChatSettings } from '../../src/contract/entities';
import { LIMITS } from '../../src/contract/limits';

/** What «Навсегда» is stored as: a time that never comes. */
export const FOREVER_AT = '9999-12-31T23:59:59.999Z';
export const TOO_MANY_PINS = `Можно закрепить не больше ${LIMITS.pinnedMax} чатов`;

export const isMuted = (mutedUntil: string | null | undefined, now: number): boolean =>
  Boolean(mutedUntil) && Date.parse(mutedUntil as string) > now;

export interface SettingsRow {
  muted_until: string | null;
  pinned_at: string | null;
  archived_seq: number | null;
  marked_unread?: number | null;
}

/**
 * The settings as the contract has them. An archived chat is back in the list once a message newer than its archiving
 * arrived, unless it is muted.
 */
export function settingsOf(row: SettingsRow, latestSeq: number | null, now: number): ChatSettings {
  const muted = isMuted(row.muted_until, now);
  const archived =
    row.archived_seq !== null &&
    row.archived_seq !== undefined &&
    (muted || Number(latestSeq ?? 0) <= Number(row.archived_seq));
  return {
    mutedUntil: row.muted_until === FOREVER_AT ? 'forever' : muted ? row.muted_until : null,
    pinned: row.pinned_at !== null,
    pinnedAt: row.pinned_at,
    archived,
    ...(Number(row.marked_unread ?? 0) === 1 ? { markedUnread: true } : {}),
  };
}

/**
 * Not muted, pinned, archived or marked unread: what an entry without `settings` means (the list leaves such settings
 * out).
 */
export const isDefaultSettings = (s: ChatSettings): boolean =>
  s.mutedUntil === null && !s.pinned && s.pinnedAt === null && !s.archived && !s.markedUnread;
