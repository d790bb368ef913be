// Threads' summaries for their roots («N ответов» with the last repliers): one grouped query for a batch of roots,
// a range of the messages_thread index per root, whatever the number of replies.
import type { ThreadSummary } from '../../src/contract/entities';
import type { Database } from '../db/database';

/** How many of the last repliers a root shows. */
export const REPLIERS_SHOWN = 3;

/** The summaries of those of `rootIds` that have replies (visible ones: not deleted). */
export async function threadSummaries(db: Database, rootIds: readonly string[]): Promise<Map<string, ThreadSummary>> {
  if (rootIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('messages')
    .select((eb) => [
      'thread_root_id',
      'sender_id',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.max('seq').as('last_seq'),
      eb.fn.max('created_at').as('last_at'),
    ])
    .where('thread_root_id', 'in', [...rootIds])
    .where('deleted_at', 'is', null)
    .groupBy(['thread_root_id', 'sender_id'])
    .execute();
  const byRoot = new Map<string, { sender: string; n: number; seq: number; at: string }[]>();
  for (const r of rows) {
    const root = r.thread_root_id as string;
    const entry = { sender: r.sender_id, n: Number(r.n), seq: Number(r.last_seq), at: String(r.last_at) };
    const list = byRoot.get(root);
    if (list) list.push(entry);
    else byRoot.set(root, [entry]);
  }
  const out = new Map<string, ThreadSummary>();
  for (const [root, list] of byRoot) {
    list.sort((a, b) => b.seq - a.seq);
    out.set(root, {
      replyCount: list.reduce((sum, x) => sum + x.n, 0),
      lastReplyAt: list[0]?.at ?? null,
      repliers: list.slice(0, REPLIERS_SHOWN).map((x) => x.sender),
    });
  }
  return out;
}
