import type { Database } from '../db/database';

/** Users who may see this user's profile and presence changes: friends and anyone sharing a conversation, except whom they blocked. */
export async function relatedUserIds(db: Database, userId: string): Promise<string[]> {
  const friends = await db
    .selectFrom('contacts')
    .select(['requester_id', 'addressee_id'])
    .where((eb) => eb.or([eb('requester_id', '=', userId), eb('addressee_id', '=', userId)]))
    .execute();
  const ids = new Set<string>();
  for (const f of friends) ids.add(f.requester_id === userId ? f.addressee_id : f.requester_id);
  const rows = await db
    .selectFrom('conversation_members as mine')
    .innerJoin('conversation_members as other', 'other.conversation_id', 'mine.conversation_id')
    .select('other.user_id')
    .where('mine.user_id', '=', userId)
    .where('other.user_id', '!=', userId)
    .execute();
  for (const r of rows) ids.add(r.user_id);
  // Whoever the user blocked hears nothing of their presence or profile.
  const blocked = await db.selectFrom('blocks').select('blocked_id').where('blocker_id', '=', userId).execute();
  for (const b of blocked) ids.delete(b.blocked_id);
  return [...ids];
}
