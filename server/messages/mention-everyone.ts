// `@все` in a group (docs/behaviour.md §10.26): the message mentions every member who has not muted the group, so it
// reaches them as a mention does (Web Push, the tabs' notification, the list's «@»). Muted members are left out: the
// group is quiet for them. Above MENTION_EVERYONE_FREE_UP_TO members (`mayMentionEveryone`) only the owner and admins may; anyone else's
// `@все` is plain text, not an error.
import { mayMentionEveryone, mentionsEveryone } from '../../src/contract/message-privacy';
import { isMuted } from '../conversations/chat-settings-view';
import { memberList } from '../conversations/membership';
import type { Database } from '../db/database';

/** The mentions of a message with `content`: the named ones, plus everyone's when `@все` applies. */
export async function withEveryone(
  db: Database,
  conversationId: string,
  senderId: string,
  content: string,
  mentions: readonly string[],
): Promise<string[]> {
  // The text test first: the common message costs nothing more.
  if (!mentionsEveryone(content)) return [...mentions];
  const members = await memberList(db, conversationId);
  const sender = members.find((m) => m.id === senderId);
  if (!sender) return [...mentions];
  // The same rule the «@» list offers «все» by.
  if (!mayMentionEveryone(members.length, sender.role)) return [...mentions];
  const c = await db.selectFrom('conversations').select('is_group').where('id', '=', conversationId).executeTakeFirst();
  if (!c || Number(c.is_group) !== 1) return [...mentions];
  const now = Date.now();
  const everyone = members.filter((m) => m.id !== senderId && !isMuted(m.mutedUntil, now)).map((m) => m.id);
  return [...new Set([...mentions, ...everyone])];
}
