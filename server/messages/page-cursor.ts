// A page of history ends before a message the client names (`before`): its seq, read where the page reads — the
// chat's main line or one thread — so that an id from another chat or thread is a client's mistake (400), not a
// page of someone else's ordering.
import type { Database } from '../db/database';
import { badRequest } from '../http/errors';

export type PageScope = { conversationId: string } | { threadRootId: string };

export async function seqBefore(db: Database, messageId: string, scope: PageScope): Promise<number> {
  const [column, value, where] =
    'threadRootId' in scope
      ? (['thread_root_id', scope.threadRootId, 'в этом обсуждении'] as const)
      : (['conversation_id', scope.conversationId, 'в этой беседе'] as const);
  const cursor = await db
    .selectFrom('messages')
    .select('seq')
    .where('id', '=', messageId)
    .where(column, '=', value)
    .executeTakeFirst();
  if (!cursor) throw badRequest(`before: сообщение не найдено ${where}`);
  return Number(cursor.seq);
}
