// Turns a users row into the contract's User shapes.

import type { Selectable } from 'kysely';
import type { CustomStatus, PresenceStatus, PublicUser, User } from '../../src/contract/entities';
import { DEFAULT_MESSAGE_PRIVACY, isMessagePrivacy } from '../../src/contract/message-privacy';
import type { UsersTable } from '../db/schema';

export type UserRow = Selectable<UsersTable>;

/** What a deleted account is called wherever it still shows (account-deletion.ts). */
export const DELETED_NAME = 'Удалённый аккаунт';

/** What others see: the chosen status while the user is connected, else OFFLINE (OFFLINE chosen = invisible). */
export type PresenceLookup = (userId: string) => boolean;

/** The columns a PublicUser is made of: lists select only these (never password hashes or e-mails). */
export const PUBLIC_USER_COLUMNS = [
  'id',
  'username',
  'display_name',
  'avatar_url',
  'status',
  'last_seen_at',
  'eblid',
  'bio',
  'deactivated_at',
  'deleted_at',
  'custom_status_emoji',
  'custom_status_text',
  'custom_status_expires_at',
] as const;
export type PublicUserRow = Pick<UserRow, (typeof PUBLIC_USER_COLUMNS)[number]>;

/** The status of one's own as sent (null: none). Rows read before migration 046's columns exist have none. */
export function customStatusOf(
  row: Partial<Pick<UserRow, 'custom_status_emoji' | 'custom_status_text' | 'custom_status_expires_at'>>,
): CustomStatus | null {
  const emoji = row.custom_status_emoji ?? '';
  const text = row.custom_status_text ?? '';
  if (!emoji && !text) return null;
  return { emoji, text, expiresAt: row.custom_status_expires_at ?? null };
}

export function toPublicUser(row: PublicUserRow, isOnline: PresenceLookup): PublicUser {
  // A deleted account keeps its id (its messages stay in others' chats) and nothing that names the person: its
  // username and EBLID are held for a while (account-deletion.ts) but not shown to anyone.
  if (row.deleted_at) {
    return {
      id: row.id,
      username: '',
      displayName: DELETED_NAME,
      avatarUrl: null,
      status: 'OFFLINE',
      lastSeenAt: null,
      eblid: '',
      bio: null,
      customStatus: null,
      deleted: true,
    };
  }
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    status: (isOnline(row.id) ? row.status : 'OFFLINE') as PresenceStatus,
    lastSeenAt: row.last_seen_at,
    eblid: row.eblid,
    bio: row.bio,
    customStatus: customStatusOf(row),
    ...(row.deactivated_at ? { deactivated: true } : {}),
  };
}

type CustomStatusColumns = 'custom_status_emoji' | 'custom_status_text' | 'custom_status_expires_at';

/** The owner's view: the status as chosen (the settings select shows it), plus private fields. */
export function toOwnUser(
  row: Omit<UserRow, 'message_privacy' | CustomStatusColumns> & { message_privacy?: string } & Partial<
      Pick<UserRow, CustomStatusColumns>
    >,
): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    status: row.status as PresenceStatus,
    lastSeenAt: row.last_seen_at,
    eblid: row.eblid,
    bio: row.bio,
    customStatus: customStatusOf(row),
    email: row.email,
    role: row.role === 'admin' ? 'admin' : 'member',
    messagePrivacy: isMessagePrivacy(row.message_privacy) ? row.message_privacy : DEFAULT_MESSAGE_PRIVACY,
  };
}
