// «Удалить у меня» / «Скрыть у себя» (docs/behaviour.md §10.19): messages hidden for one person on every device, or
// shown again. Any visible message of a conversation the person is in; anything else is «not found» and nothing
// changes. Only the person's own tabs hear of it.
import type { ConversationListCache } from '../conversations/list-cache';
import { memberIds } from '../conversations/membership';
import type { Database } from '../db/database';
import { notFound } from '../http/errors';
import type { RealtimeHub } from '../realtime/hub';
import { MESSAGE_NOT_FOUND } from './delete-message';

export interface HideDeps {
  db: Database;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toUsers'>;
}

export function createMessageHider({ db, lists, realtime }: HideDeps) {
  return async function hide(userId: string, messageIds: readonly string[], on: boolean): Promise<void> {
    const ids = [...new Set(messageIds)];
    const rows = await db
      .selectFrom('messages')
      .select(['id', 'conversation_id'])
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    if (rows.length !== ids.length) throw notFound(MESSAGE_NOT_FOUND);
    const byConversation = new Map<string, string[]>();
    for (const r of rows)
      byConversation.set(r.conversation_id, [...(byConversation.get(r.conversation_id) ?? []), r.id]);
    for (const c of byConversation.keys()) {
      if (!(await memberIds(db, c)).includes(userId)) throw notFound(MESSAGE_NOT_FOUND);
    }
    const now = new Date().toISOString();
    if (on) {
      await db
        .insertInto('hidden_messages')
        .values(
          rows.map((r) => ({ user_id: userId, message_id: r.id, conversation_id: r.conversation_id, hidden_at: now })),
        )
        .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
        .execute();
    } else {
      await db.deleteFrom('hidden_messages').where('user_id', '=', userId).where('message_id', 'in', ids).execute();
    }
    for (const [conversationId, hiddenIds] of byConversation) {
      // The list's preview may have been one of them.
      lists.changed([userId], conversationId);
      realtime.toUsers([userId], 'message:hidden', { conversationId, messageIds: hiddenIds, hidden: on });
    }
  };
}
