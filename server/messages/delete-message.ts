// Deleting a message for everyone: only its sender, only while it is visible; the list caches and every member's
// sockets learn of it.
import type { ConversationListCache } from '../conversations/list-cache';
import { memberIds, membersFor } from '../conversations/membership';
import type { Database } from '../db/database';
import { forbidden, notFound } from '../http/errors';
import type { RealtimeHub } from '../realtime/hub';

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
    lists.changed(members, row.conversation_id);
    realtime.toUsers(members, 'message:deleted', { conversationId: row.conversation_id, messageId: row.id });
    await unpin?.(row.conversation_id, row.id, members, moderator ? row.sender_id : userId);
  };
}
