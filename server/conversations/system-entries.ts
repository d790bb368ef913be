// A group's SYSTEM entries: written by the server alone, inside the transaction of the change they record, with the
// names people had then (someone removed later is no longer among the participants to look the name up in).
import type { Kysely, Transaction } from 'kysely';
import type { Message, SystemInfo, SystemKind } from '../../src/contract/entities';
import type { DB } from '../db/schema';
import { newMessageId } from '../messages/message-id';
import { freshMessage } from '../messages/message-view';

type Tx = Transaction<DB> | Kysely<DB>;

async function names(trx: Tx, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await trx.selectFrom('users').select(['id', 'display_name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.display_name]));
}

/** Writes the entry and returns it as the contract's message (nobody has read it: receipts empty). */
export async function writeSystemEntry(
  trx: Tx,
  conversationId: string,
  actorId: string,
  kind: SystemKind,
  targets: readonly string[] = [],
  title: string | null = null,
  at: Date = new Date(),
  pinned?: { messageId: string; excerpt: string },
): Promise<Message> {
  const named = await names(trx, [actorId, ...targets]);
  const system: SystemInfo = {
    kind,
    actor: { id: actorId, name: named.get(actorId) ?? '' },
    targets: targets.map((id) => ({ id, name: named.get(id) ?? '' })),
    title,
    ...(pinned ?? {}),
  };
  const row = {
    id: newMessageId(at.getTime()),
    conversation_id: conversationId,
    sender_id: actorId,
    type: 'SYSTEM',
    content: '',
    reply_to_id: null,
    client_message_id: null,
    created_at: at.toISOString(),
    deleted_at: null,
  };
  await trx
    .insertInto('messages')
    .values({ ...row, system_info: JSON.stringify(system) })
    .execute();
  return freshMessage(row, null, [], { system });
}
