// Who may see a thread: a member of its group who can see the root (one who joined later sees the history from
// their joining on, and so the threads of those messages only). Anyone else learns nothing: the same 404 as for a
// message that does not exist. A group whose owner or admins turned threads off answers 403.
import { memberOf } from '../conversations/membership';
import type { Database } from '../db/database';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { MessageRow } from '../messages/message-view';

export const THREAD_NOT_FOUND = 'Обсуждение не найдено';
export const THREADS_OFF = 'Обсуждения в этой группе выключены';
export const THREADS_IN_GROUPS_ONLY = 'Обсуждения есть только в группах';
export const NOT_A_ROOT = 'Обсуждение можно начать только у сообщения беседы';

export interface ThreadRoot {
  root: MessageRow;
  /** Where the caller's history starts (their visible_from_seq). */
  visibleFromSeq: number;
}

/** The root message of a thread the caller may read and write in, or the refusal. */
export async function threadRootFor(db: Database, userId: string, rootId: string): Promise<ThreadRoot> {
  const root = await db
    .selectFrom('messages')
    .selectAll()
    .where('id', '=', rootId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!root) throw notFound(THREAD_NOT_FOUND);
  let me: Awaited<ReturnType<typeof memberOf>>;
  try {
    me = await memberOf(db, root.conversation_id, userId);
  } catch {
    throw notFound(THREAD_NOT_FOUND);
  }
  if (me.visibleFromSeq > 0 && Number(root.seq) <= me.visibleFromSeq) throw notFound(THREAD_NOT_FOUND);
  const conversation = await db
    .selectFrom('conversations')
    .select(['direct_key', 'secret', 'threads_off'])
    .where('id', '=', root.conversation_id)
    .executeTakeFirst();
  if (!conversation) throw notFound(THREAD_NOT_FOUND);
  if (conversation.direct_key !== null || Number(conversation.secret) === 1) throw badRequest(THREADS_IN_GROUPS_ONLY);
  if (Number(conversation.threads_off) === 1) throw forbidden(THREADS_OFF);
  if (root.thread_root_id !== null || root.type === 'SYSTEM' || root.type === 'CALL') throw badRequest(NOT_A_ROOT);
  return { root, visibleFromSeq: me.visibleFromSeq };
}
