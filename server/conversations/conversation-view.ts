// Builds ConversationEntry objects for one user: a fixed number of queries for any number of
// conversations (conversations, participants, latest messages, unread counts, then one message batch).
import type { ConversationEntry } from '../../src/contract/entities';
import type { AppContext } from '../context';
import { toMessages } from '../messages/message-view';
import { toPublicUser } from '../users/user-view';

/** The caller's conversations (or just `onlyId`), newest activity first. */
export async function loadConversationEntries(
  ctx: AppContext,
  userId: string,
  onlyId?: string,
): Promise<ConversationEntry[]> {
  const { db } = ctx;
  const mine = db
    .selectFrom('conversation_members')
    .select('conversation_id')
    .where('user_id', '=', userId)
    .$if(Boolean(onlyId), (q) => q.where('conversation_id', '=', onlyId as string));

  const [conversations, participants, latest, unread] = await Promise.all([
    db.selectFrom('conversations').selectAll().where('id', 'in', mine).execute(),
    db
      .selectFrom('conversation_members as cm')
      .innerJoin('users as u', 'u.id', 'cm.user_id')
      .selectAll('u')
      .select(['cm.conversation_id as member_of', 'cm.joined_at'])
      .where('cm.conversation_id', 'in', mine)
      .orderBy('cm.joined_at')
      .orderBy('u.id')
      .execute(),
    // The latest visible message per conversation: one backward probe of (conversation_id, seq) per
    // membership, then primary-key lookups; never a scan of the histories.
    db
      .selectFrom('messages')
      .selectAll()
      .where('seq', 'in', (eb) =>
        eb
          .selectFrom('conversation_members as cm')
          .select((e) =>
            e
              .selectFrom('messages as m2')
              .select((x) => x.fn.max('m2.seq').as('s'))
              .whereRef('m2.conversation_id', '=', 'cm.conversation_id')
              .where('m2.deleted_at', 'is', null)
              .as('latest'),
          )
          .where('cm.user_id', '=', userId)
          .$if(Boolean(onlyId), (q) => q.where('cm.conversation_id', '=', onlyId as string)),
      )
      .execute(),
    db
      .selectFrom('messages as m')
      .leftJoin('receipts as r', (j) => j.onRef('r.message_id', '=', 'm.id').on('r.user_id', '=', userId))
      .select(['m.conversation_id', (eb) => eb.fn.count<number | string>('m.id').as('n')])
      .where('m.conversation_id', 'in', mine)
      .where('m.sender_id', '!=', userId)
      .where('m.deleted_at', 'is', null)
      .where('r.message_id', 'is', null)
      .groupBy('m.conversation_id')
      .execute(),
  ]);

  const messages = await toMessages(db, latest);
  const latestBy = new Map(messages.map((m) => [m.conversationId, m]));
  const unreadBy = new Map(unread.map((u) => [u.conversation_id, Number(u.n)]));
  const online = (id: string) => ctx.realtime.isOnline(id);
  const participantsBy = new Map<string, { user: ReturnType<typeof toPublicUser> }[]>();
  for (const p of participants) {
    const list = participantsBy.get(p.member_of) ?? [];
    list.push({ user: toPublicUser(p, online) });
    participantsBy.set(p.member_of, list);
  }

  const entries = conversations.map((c) => {
    const last = latestBy.get(c.id);
    const people = participantsBy.get(c.id) ?? [];
    return {
      sortKey: last?.createdAt ?? c.created_at,
      entry: {
        conversation: {
          id: c.id,
          title: c.title,
          isGroup: c.is_group === 1 || people.length > 2,
          participants: people,
          messages: last ? [last] : [],
        },
        unreadCount: unreadBy.get(c.id) ?? 0,
      },
    };
  });
  entries.sort((a, b) => (a.sortKey < b.sortKey ? 1 : a.sortKey > b.sortKey ? -1 : 0));
  return entries.map((e) => e.entry);
}

export async function loadConversation(ctx: AppContext, userId: string, conversationId: string) {
  const [entry] = await loadConversationEntries(ctx, userId, conversationId);
  return entry;
}
