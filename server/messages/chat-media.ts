// GET /api/conversations/:id/media (docs/behaviour.md §10.46): «Медиа» (photos), «Файлы», «Ссылки» and «Голосовые»
// of a chat's «Информация», newest first, a page at a time. What the history route shows, of one kind: only a member
// reads it (memberOf, the history's check: a removed member is refused at once, on every process), from where their
// history starts (a newcomer to a group that hides it, or after «Очистить историю»), without messages deleted for
// everyone or hidden by them («Удалить у меня»), and without thread replies (read in their thread). A secret chat's
// messages are ciphertext: the browser builds its tabs from what it decrypted.
//
// Each kind is read from its own partial index (migrations/049_chat_media.ts), whose condition the query repeats as
// literal SQL (a bound parameter would keep either database from proving the index applies). A link is what
// httpLinks finds, as the link cards do: a text with «https://» and no address in it is skipped, reading on.
import { sql } from 'kysely';
import type { ChatMediaItem } from '../../src/contract/api/messages';
import type { ChatMediaKind } from '../../src/contract/chat-media';
import { httpLinks } from '../../src/contract/http-links';
import { memberOf } from '../conversations/membership';
import { isSecret, SECRET_IS_ENCRYPTED } from '../conversations/secret-flag';
import type { Database } from '../db/database';
import { CHAT_MEDIA_INDEXES } from '../db/migrations/049_chat_media';
import { badRequest } from '../http/errors';
import { type MessageRow, toMessages } from './message-view';
import { notHiddenBy } from './not-hidden';
import { seqBefore } from './page-cursor';

/** Types whose text a link may be in (not a call, a SYSTEM entry, a poll's question or ciphertext). */
const LINK_TYPES = ['TEXT', 'IMAGE', 'FILE'];

export interface ChatMediaRequest {
  userId: string;
  conversationId: string;
  kind: ChatMediaKind;
  before?: string;
  limit: number;
}

/** The statement of one read (exported so a test can EXPLAIN it). */
export function chatMediaQuery(
  db: Database,
  r: {
    userId: string;
    conversationId: string;
    kind: ChatMediaKind;
    visibleFromSeq: number;
    beforeSeq: number | null;
    limit: number;
  },
) {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('conversation_id', '=', r.conversationId)
    .where(sql<boolean>`${sql.raw(CHAT_MEDIA_INDEXES[r.kind].where)}`)
    .$if(r.kind === 'links', (q) => q.where('type', 'in', LINK_TYPES))
    .where('deleted_at', 'is', null)
    .where('thread_root_id', 'is', null)
    .where(notHiddenBy(r.userId, 'messages.id'))
    .$if(r.visibleFromSeq > 0, (q) => q.where('seq', '>', r.visibleFromSeq))
    .$if(r.beforeSeq !== null, (q) => q.where('seq', '<', r.beforeSeq as number))
    .orderBy('seq', 'desc')
    .limit(r.limit);
}

export async function chatMedia(
  db: Database,
  r: ChatMediaRequest,
): Promise<{ items: ChatMediaItem[]; nextBefore: string | null }> {
  const me = await memberOf(db, r.conversationId, r.userId);
  if (await isSecret(db, r.conversationId)) throw badRequest(SECRET_IS_ENCRYPTED);
  let beforeSeq = r.before ? await seqBefore(db, r.before, { conversationId: r.conversationId }) : null;
  const found: { row: MessageRow; links: string[] }[] = [];
  let more = false;
  // One read of limit + 1 answers the other kinds; links read on past texts that only look like they have one.
  for (;;) {
    const rows = await chatMediaQuery(db, {
      userId: r.userId,
      conversationId: r.conversationId,
      kind: r.kind,
      visibleFromSeq: me.visibleFromSeq,
      beforeSeq,
      limit: r.limit + 1,
    }).execute();
    for (const row of rows) {
      const links = r.kind === 'links' ? httpLinks(row.content) : [];
      if (r.kind === 'links' && links.length === 0) continue;
      if (found.length === r.limit) {
        more = true;
        break;
      }
      found.push({ row, links });
    }
    if (more || rows.length <= r.limit) break;
    beforeSeq = Number(rows[rows.length - 1]?.seq);
  }
  const messages = await toMessages(
    db,
    found.map((f) => f.row),
    r.userId,
  );
  return {
    items: messages.map((message, i) => ({ message, links: found[i]?.links ?? [] })),
    nextBefore: more ? (found[found.length - 1]?.row.id ?? null) : null,
  };
}
