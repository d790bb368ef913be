// Deleting a message for everyone: only its sender, only while it is visible; the list caches and every member's
// sockets learn of it (a thread reply with its root's new summary).
import type { ConversationListCache } from '../conversations/list-cache';
import { memberIds, membersFor } from '../conversations/membership';
import type { Database } from '../db/database';
import { forbidden, notFound } from '../http/errors';
import type { RealtimeHub } from '../realtime/hub';
import { forgetVersions } from './message-history';
import { threadSummaries } from './thread-summary';

export const MESSAGE_NOT_FOUND = 'Сообщение не найдено';

export interface DeleteDeps {
  db: Database;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toUsers'>;
  /** A deleted message leaves the conversation's pins (message-pins.ts). */
  unpin?: (conversationId: string, messageId: string, members: readonly string[], viewer: string) => Promise<void>;
}

export function createMessageDeleter({ db, lists, realtime, unpin }: DeleteDeps) {
  const visibleMessage = (id: string) =>
    db.selectFrom('messages').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

  /** `moderator`: an administrator acting on a report, who need not be a member or the sender. */
  return async function deleteMessage(userId: string, messageId: string, moderator = false): Promise<void> {
    const row = await visibleMessage(messageId);
    if (!row) throw notFound(MESSAGE_NOT_FOUND);
    const members = moderator
      ? await memberIds(db, row.conversation_id)
      : await membersFor(db, row.conversation_id, userId).catch(() => {
          throw notFound(MESSAGE_NOT_FOUND);
        });
    if (!moderator && row.sender_id !== userId) throw forbidden('Удалить сообщение может только отправитель');
    await db
      .updateTable('messages')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', row.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    await forgetVersions(db, row.id);
    lists.changed(members, row.conversation_id);
    // A thread reply: its root's «N ответов» as it is now goes with it, so every timeline changes at once.
    const rootId = row.thread_root_id;
    const thread = rootId
      ? ((await threadSummaries(db, [rootId])).get(rootId) ?? { replyCount: 0, lastReplyAt: null, repliers: [] })
      : undefined;
    realtime.toUsers(members, 'message:deleted', {
      conversationId: row.conversation_id,
      messageId: row.id,
      ...(rootId && thread ? { threadRootId: rootId, thread } : {}),
    });
    await unpin?.(row.conversation_id, row.id, members, moderator ? row.sender_id : userId);
  };
}
