// «Кто может мне писать» (docs/behaviour.md §10.26): whether `from` may start a direct chat (plain or secret) with `to`. Friends always
// may; otherwise `to`'s choice decides — 'everyone', 'groups' (a group, secret or not, has both as members) or
// 'friends'. A block refuses whatever the choice, with the texts the send path uses.
import {
  DEFAULT_MESSAGE_PRIVACY,
  isMessagePrivacy,
  MESSAGE_PRIVACY_REFUSALS,
} from '../../src/contract/message-privacy';
import type { Database } from '../db/database';
import { forbidden } from '../http/errors';
import { BLOCKED_BY_ME, BLOCKED_BY_THEM, type Blocks } from './blocks';

const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);

export async function areFriends(db: Database, a: string, b: string): Promise<boolean> {
  const row = await db
    .selectFrom('contacts')
    .select('pair_key')
    .where('pair_key', '=', pairKey(a, b))
    .where('status', '=', 'ACCEPTED')
    .executeTakeFirst();
  return row !== undefined;
}

export async function shareGroup(db: Database, a: string, b: string): Promise<boolean> {
  const row = await db
    .selectFrom('conversation_members as mine')
    .innerJoin('conversation_members as theirs', 'theirs.conversation_id', 'mine.conversation_id')
    .innerJoin('conversations as c', 'c.id', 'mine.conversation_id')
    .select('c.id')
    .where('mine.user_id', '=', a)
    .where('theirs.user_id', '=', b)
    .where('c.is_group', '=', 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Why `from` may not write to `to` first (the 403's words), or null when they may. */
export async function writeRefusal(
  { db, blocks }: { db: Database; blocks: Pick<Blocks, 'has' | 'between'> },
  from: string,
  to: string,
): Promise<string | null> {
  if (blocks.between(from, to)) return blocks.has(from, to) ? BLOCKED_BY_ME : BLOCKED_BY_THEM;
  if (await areFriends(db, from, to)) return null;
  const row = await db.selectFrom('users').select('message_privacy').where('id', '=', to).executeTakeFirst();
  const choice = isMessagePrivacy(row?.message_privacy) ? row.message_privacy : DEFAULT_MESSAGE_PRIVACY;
  if (choice === 'everyone') return null;
  if (choice === 'groups' && (await shareGroup(db, from, to))) return null;
  return MESSAGE_PRIVACY_REFUSALS[choice];
}

/** Throws the 403 that says why `from` may not write to `to` first; returns when they may. */
export async function requireMayWrite(
  deps: { db: Database; blocks: Pick<Blocks, 'has' | 'between'> },
  from: string,
  to: string,
): Promise<void> {
  const why = await writeRefusal(deps, from, to);
  if (why) throw forbidden(why);
}
