// One person's settings of a chat (docs/groups.md): «Без звука», «Закрепить», «В архив», «Пометить как
// непрочитанное», «Очистить историю» and «Удалить чат». They live on the person's membership row, so every device and
// tab sees the same; a change is told to the person's tabs (conversation:settings, or conversation:removed for a
// hidden chat) and drops the membership cache here and on the other processes (it holds the mute the push path reads).

import type { z } from 'zod';
import type { ChatSettingsBody } from '../../src/contract/api';
import { LIMITS } from '../../src/contract/limits';
import type { Database } from '../db/database';
import { conflict } from '../http/errors';
import type { RealtimeHub } from '../realtime/hub';
import { refuseSaved } from '../saved/saved-chat';
import { FOREVER_AT, settingsOf, TOO_MANY_PINS } from './chat-settings-view';
import type { Groups } from './group-members';
import type { ConversationListCache } from './list-cache';
import { forgetMembers, memberOf } from './membership';

export interface ChatSettingsDeps {
  db: Database;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toUser'>;
  groups: Pick<Groups, 'leave'>;
  membersChanged: ((conversationId: string) => void) | null;
  now?: () => number;
}

const settingsRow = (db: Database, userId: string, conversationId: string) =>
  db
    .selectFrom('conversation_members')
    .select(['muted_until', 'pinned_at', 'archived_seq', 'marked_unread'])
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();

const latestSeqOf = async (db: Database, conversationId: string) =>
  Number(
    (
      await db
        .selectFrom('messages')
        .select((eb) => eb.fn.max('seq').as('s'))
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst()
    )?.s ?? 0,
  );

/**
 * Opening the chat (POST /messages/mark-conversation-read, after the caller's membership check) takes «Пометить как
 * непрочитанное» off on every device; only a marked chat costs more than the one UPDATE.
 */
export async function takeOffUnreadMark(
  { db, lists, realtime, now = Date.now }: Pick<ChatSettingsDeps, 'db' | 'lists' | 'realtime' | 'now'>,
  userId: string,
  conversationId: string,
): Promise<void> {
  const cleared = await db
    .updateTable('conversation_members')
    .set({ marked_unread: 0 })
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', userId)
    .where('marked_unread', '=', 1)
    .executeTakeFirst();
  if (Number(cleared.numUpdatedRows) === 0) return;
  lists.changed([userId]);
  const settings = settingsOf(
    await settingsRow(db, userId, conversationId),
    await latestSeqOf(db, conversationId),
    now(),
  );
  realtime.toUser(userId, 'conversation:settings', { conversationId, settings });
}

export function createChatSettings({ db, lists, realtime, groups, membersChanged, now = Date.now }: ChatSettingsDeps) {
  const newestSeq = (conversationId: string) => latestSeqOf(db, conversationId);
  const row = (userId: string, conversationId: string) => settingsRow(db, userId, conversationId);
  function changed(userId: string, conversationId: string) {
    forgetMembers(db, conversationId);
    membersChanged?.(conversationId);
    lists.changed([userId]);
  }

  async function update(userId: string, conversationId: string, body: z.output<typeof ChatSettingsBody>) {
    await memberOf(db, conversationId, userId);
    const set: Partial<
      Record<'muted_until' | 'pinned_at', string | null> & { archived_seq: number | null; marked_unread: number }
    > = {};
    if (body.markedUnread !== undefined) set.marked_unread = body.markedUnread ? 1 : 0;
    if (body.mutedUntil !== undefined) {
      set.muted_until =
        body.mutedUntil === null
          ? null
          : body.mutedUntil === 'forever'
            ? FOREVER_AT
            : new Date(body.mutedUntil).toISOString();
    }
    if (body.archived !== undefined) set.archived_seq = body.archived ? await newestSeq(conversationId) : null;
    const current = await row(userId, conversationId);
    if (body.pinned === false) set.pinned_at = null;
    if (body.pinned === true && current.pinned_at === null) {
      const pins = await db
        .selectFrom('conversation_members')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('pinned_at', 'is not', null)
        .executeTakeFirstOrThrow();
      if (Number(pins.n) >= LIMITS.pinnedMax) throw conflict(TOO_MANY_PINS);
      set.pinned_at = new Date(now()).toISOString();
    }
    if (Object.keys(set).length) {
      await db
        .updateTable('conversation_members')
        .set(set)
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .execute();
      changed(userId, conversationId);
    }
    const settings = settingsOf(await row(userId, conversationId), await newestSeq(conversationId), now());
    realtime.toUser(userId, 'conversation:settings', { conversationId, settings });
    return { settings };
  }

  /** «Очистить историю»: what is there now is hidden for this person (their history starts after it). */
  async function clear(userId: string, conversationId: string) {
    await memberOf(db, conversationId, userId);
    await hideUpTo(userId, conversationId, await newestSeq(conversationId), {});
    return { ok: true as const };
  }

  /** The person's history (and unread count) starts after `seq` (never moving back). */
  async function hideUpTo(userId: string, conversationId: string, seq: number, extra: { hidden_seq?: number }) {
    const mine = await db
      .selectFrom('conversation_members')
      .select(['visible_from_seq', 'last_read_seq'])
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('conversation_members')
      .set({
        ...extra,
        visible_from_seq: Math.max(Number(mine.visible_from_seq), seq),
        last_read_seq: Math.max(Number(mine.last_read_seq), seq),
      })
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .execute();
    changed(userId, conversationId);
  }

  /** «Удалить чат»: a direct chat leaves the list (with its history) until a new message; a group is left. */
  async function hide(userId: string, conversationId: string) {
    await memberOf(db, conversationId, userId);
    await refuseSaved(db, conversationId);
    const direct = await db
      .selectFrom('conversations')
      .select('direct_key')
      .where('id', '=', conversationId)
      .executeTakeFirst();
    if (!direct?.direct_key) {
      await groups.leave(userId, conversationId);
      return { ok: true as const };
    }
    const seq = await newestSeq(conversationId);
    await hideUpTo(userId, conversationId, seq, { hidden_seq: seq });
    realtime.toUser(userId, 'conversation:removed', { conversationId });
    return { ok: true as const };
  }

  return { update, clear, hide };
}
