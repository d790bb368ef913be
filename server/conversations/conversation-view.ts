// Builds ConversationEntry objects for one user in a fixed number of queries, whatever the number of
// conversations: one for the conversations with their latest visible message and unread count (newest
// activity first), one for the participants' public columns (each person once; who is in which conversation
// comes from the membership cache, in joining order), then the latest messages' receipts (and attachments or
// quotes only when one of them has some).
import type { ConversationEntry } from '../../src/contract/entities';
import type { Database } from '../db/database';
import { preparedQuery } from '../db/prepared';
import { type MessageRow, toMessages } from '../messages/message-view';
import type { RealtimeHub } from '../realtime/hub';
import type { Blocks } from '../users/blocks';
import { PUBLIC_USER_COLUMNS, toPublicUser } from '../users/user-view';
import { isDefaultSettings, settingsOf } from './chat-settings-view';
import { memberListsOf } from './membership';
import { notHiddenBy } from '../messages/not-hidden';

/** What entries are built from: the database, and presence for the participants' online flag. */
export interface ViewDeps {
  db: Database;
  realtime: Pick<RealtimeHub, 'isOnline'>;
  /** Who blocked whom: a blocker shows offline to the person they blocked, and the blocker's direct chat says so. */
  blocks?: Pick<Blocks, 'has'>;
}

/** A user's conversations with their latest visible message and unread count (or just `onlyId`). */
function conversationsQuery(db: Database, userId: string, onlyId?: string) {
  return (
    db
      .selectFrom('conversation_members as me')
      .innerJoin('conversations as c', 'c.id', 'me.conversation_id')
      // The latest visible message: one backward probe of (conversation_id, seq), never a scan of the history.
      .leftJoin('messages as m', (j) =>
        j.on('m.seq', '=', (eb) =>
          eb
            .selectFrom('messages as l')
            .select('l.seq')
            .whereRef('l.conversation_id', '=', 'c.id')
            .whereRef('l.seq', '>', 'me.visible_from_seq')
            .where('l.deleted_at', 'is', null)
            // A secret chat's edits and reactions are never the preview (migrations/020_secret_control.ts).
            .where('l.control', 'is', null)
            // Thread replies stay in their threads (docs/behaviour.md §10).
            .where('l.thread_root_id', 'is', null)
            // Not one the user hid for themselves (a probe of the hidden table's key, usually empty).
            .where(notHiddenBy(userId, 'l.id'))
            .orderBy('l.seq', 'desc')
            .limit(1),
        ),
      )
      .select([
        'c.id',
        'c.title',
        'c.is_group',
        'c.created_at',
        'c.avatar_url',
        'c.secret',
        'c.open',
        'c.history_visible',
        'c.threads_off',
        'c.saved',
        'me.muted_until',
        'me.pinned_at',
        'me.archived_seq',
        'me.marked_unread',
        'me.hidden_seq',
        'm.seq as m_seq',
        'm.id as m_id',
        'm.sender_id as m_sender_id',
        'm.type as m_type',
        'm.content as m_content',
        'm.reply_to_id as m_reply_to_id',
        'm.client_message_id as m_client_message_id',
        'm.created_at as m_created_at',
        'm.edited_at as m_edited_at',
        'm.reactions as m_reactions',
        'm.system_info as m_system_info',
        'm.forwarded_from_user_id as m_forwarded_from_user_id',
        'm.forwarded_from_name as m_forwarded_from_name',
        'm.mentions as m_mentions',
        'm.reminder_of as m_reminder_of',
        'm.imported_author as m_imported_author',
        'm.imported_from as m_imported_from',
        'm.entities as m_entities',
        // Unread messages that mention the user: the chat list's «@».
        (eb) =>
          eb
            .selectFrom('message_mentions as mm')
            .innerJoin('messages as mu', 'mu.id', 'mm.message_id')
            .select((x) => x.fn.countAll<number | string>().as('n'))
            .where('mm.user_id', '=', userId)
            .whereRef('mm.conversation_id', '=', 'c.id')
            .whereRef('mu.seq', '>', 'me.last_read_seq')
            .where('mu.deleted_at', 'is', null)
            .where('mu.thread_root_id', 'is', null)
            .as('mentions_unread'),
        // Unread = visible messages from others after the user's read cursor (migrations/006_read_cursors.ts): one
        // range of the messages_visible index, empty for a conversation that is read.
        (eb) =>
          eb
            .selectFrom('messages as u')
            .select((x) => x.fn.countAll<number | string>().as('n'))
            .whereRef('u.conversation_id', '=', 'c.id')
            .whereRef('u.seq', '>', 'me.last_read_seq')
            .where('u.deleted_at', 'is', null)
            .where('u.sender_id', '!=', userId)
            // A group's changes order the list but are no news (docs/groups.md).
            .where('u.type', '!=', 'SYSTEM')
            .where('u.control', 'is', null)
            // A thread's replies count in «Обсуждения», not here.
            .where('u.thread_root_id', 'is', null)
            .as('unread'),
      ])
      .where('me.user_id', '=', userId)
      .$if(onlyId !== undefined, (q) => q.where('me.conversation_id', '=', onlyId as string))
  );
}

const allConversations = preparedQuery(1, (db, userId) => conversationsQuery(db, userId));
const oneConversation = preparedQuery(2, (db, userId, id) => conversationsQuery(db, userId, id));

/** The activity «Избранное» sorts by: above every ISO time. */
const SAVED_ACTIVITY = '~';

/** A list entry with what orders it: the time of its latest visible message, or of the conversation's creation. */
export interface ListedEntry {
  entry: ConversationEntry;
  activity: string;
}

/** The list's order: newest activity first, then by id (so a list patched entry by entry sorts as a fresh one). */
export function byActivity(a: { activity: string; id: string }, b: { activity: string; id: string }): number {
  if (a.activity !== b.activity) return a.activity < b.activity ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The caller's conversations (or just `onlyId`), newest activity first. */
export async function loadConversationEntries(
  view: ViewDeps,
  userId: string,
  onlyId?: string,
): Promise<ConversationEntry[]> {
  return (await loadListedEntries(view, userId, onlyId)).map((l) => l.entry);
}

/** loadConversationEntries with each entry's activity (list-parts.ts orders patched lists by it). */
export async function loadListedEntries(view: ViewDeps, userId: string, onlyId?: string): Promise<ListedEntry[]> {
  const { db } = view;
  const { rows } =
    onlyId === undefined ? await allConversations(db, userId) : await oneConversation(db, userId, onlyId);
  // Newest activity first (50 rows sort faster here than in a temporary B-tree); «Избранное» above everything
  // (an activity no date reaches), so a list patched entry by entry keeps it first too.
  const activity = (r: (typeof rows)[number]) =>
    Number(r.saved) === 1 ? SAVED_ACTIVITY : (r.m_created_at ?? r.created_at);
  rows.sort((a, b) => byActivity({ activity: activity(a), id: a.id }, { activity: activity(b), id: b.id }));

  // Participants: members in joining order (kept in memory until membership changes), each person read once.
  const members = await memberListsOf(
    db,
    rows.map((r) => r.id),
  );
  const people = [...new Set([...members.values()].flat().map((m) => m.id))];
  const groups = rows.filter((r) => r.is_group === 1).map((r) => r.id);
  const [users, latestBy, callsOn] = await Promise.all([
    people.length ? db.selectFrom('users').select(PUBLIC_USER_COLUMNS).where('id', 'in', people).execute() : [],
    latestMessages(db, rows),
    groupCallsOn(db, groups),
  ]);
  const blocks = view.blocks;
  const hidden = (id: string) => blocks?.has(id, userId) ?? false;
  const online = (id: string) => view.realtime.isOnline(id);
  const userById = new Map(
    users.map((u) => [
      u.id,
      hidden(u.id)
        ? { ...toPublicUser(u, () => false), lastSeenAt: null, customStatus: null }
        : toPublicUser(u, online),
    ]),
  );

  const now = Date.now();
  // «Удалить чат» of a direct chat: gone from the list until a newer message arrives.
  const shown = rows.filter((c) => c.hidden_seq === null || Number(c.m_seq ?? 0) > Number(c.hidden_seq));
  return shown.map((c) => {
    const last = latestBy.get(c.id);
    const participants = (members.get(c.id) ?? []).flatMap((m) => {
      const user = userById.get(m.id);
      return user ? [{ user, role: m.role }] : [];
    });
    const entry: ConversationEntry = {
      conversation: {
        id: c.id,
        title: c.title,
        isGroup: c.is_group === 1 || participants.length > 2,
        avatarUrl: c.avatar_url,
        participants,
        messages: last ? [last] : [],
        createdAt: c.created_at,
        // Only a secret chat says so: the lists of every other conversation stay as they were.
        ...(Number(c.secret) === 1 ? { secret: true } : {}),
        ...(Number(c.open) === 1 ? { open: true } : {}),
        // «История для новых участников»: a group's, never a secret chat's (its keys cannot reach the past).
        ...(c.is_group === 1 && Number(c.secret) !== 1 ? { historyVisible: Number(c.history_visible) === 1 } : {}),
        ...(Number(c.threads_off) === 1 ? { threadsOff: true } : {}),
        ...(Number(c.saved) === 1 ? { saved: true } : {}),
      },
      unreadCount: Number(c.unread ?? 0),
    };
    // Absent means the defaults (the contract's ConversationEntry): most chats have them, and the list is lighter.
    const settings = settingsOf(c, c.m_seq, now);
    if (!isDefaultSettings(settings)) entry.settings = settings;
    const mentioned = Number(c.mentions_unread ?? 0);
    if (mentioned > 0) entry.unreadMentions = mentioned;
    const peer = entry.conversation.isGroup ? undefined : participants.find((p) => p.user.id !== userId);
    if (peer && blocks?.has(userId, peer.user.id)) entry.blockedByMe = true;
    const inCall = callsOn.get(c.id);
    if (inCall) entry.groupCall = inCall;
    return { entry, activity: activity(c) };
  });
}

type ListRow = {
  id: string;
  m_seq: number | null;
  m_id: string | null;
  m_sender_id: string | null;
  m_type: string | null;
  m_content: string | null;
  m_reply_to_id: string | null;
  m_client_message_id: string | null;
  m_created_at: string | null;
  m_edited_at: string | null;
  m_reactions: string | null;
  m_system_info: string | null;
  m_forwarded_from_user_id: string | null;
  m_forwarded_from_name: string | null;
  m_mentions: string | null;
  m_reminder_of: string | null;
  m_imported_author: string | null;
  m_imported_from: string | null;
  m_entities: string | null;
};

/** The groups' calls that are on (server/calls/group-calls.ts): who is in each, in joining order. */
async function groupCallsOn(
  db: Database,
  groupIds: readonly string[],
): Promise<Map<string, { participantIds: string[]; video: boolean }>> {
  const out = new Map<string, { participantIds: string[]; video: boolean }>();
  if (!groupIds.length) return out;
  const rows = await db
    .selectFrom('calls as c')
    .innerJoin('group_call_participants as p', 'p.call_id', 'c.id')
    .select(['c.conversation_id', 'c.video', 'p.user_id'])
    .where('c.group_call', '=', 1)
    .where('c.outcome', 'is', null)
    .where('c.conversation_id', 'in', groupIds)
    .where('p.left_at', 'is', null)
    .orderBy('p.joined_at')
    .orderBy('p.user_id')
    .execute();
  for (const r of rows) {
    const call = out.get(r.conversation_id);
    if (call) call.participantIds.push(r.user_id);
    else out.set(r.conversation_id, { participantIds: [r.user_id], video: Number(r.video) === 1 });
  }
  return out;
}

async function latestMessages(db: Database, rows: ListRow[]) {
  const latestRows: MessageRow[] = [];
  for (const r of rows) {
    if (r.m_id === null || r.m_seq === null) continue;
    latestRows.push({
      seq: r.m_seq,
      id: r.m_id,
      conversation_id: r.id,
      sender_id: r.m_sender_id as string,
      type: r.m_type as string,
      content: r.m_content as string,
      reply_to_id: r.m_reply_to_id,
      client_message_id: r.m_client_message_id,
      created_at: r.m_created_at as string,
      deleted_at: null,
      edited_at: r.m_edited_at,
      reactions: r.m_reactions,
      system_info: r.m_system_info,
      forwarded_from_user_id: r.m_forwarded_from_user_id,
      forwarded_from_name: r.m_forwarded_from_name,
      mentions: r.m_mentions,
      control: null,
      // The latest visible message is never a thread reply (they stay out of the main timeline).
      thread_root_id: null,
      reminder_of: r.m_reminder_of,
      // A chat with only an imported history shows its last imported entry.
      import_key: null,
      import_source_id: null,
      import_job_id: null,
      imported_author: r.m_imported_author,
      imported_from: r.m_imported_from,
      entities: r.m_entities,
    });
  }
  return new Map((await toMessages(db, latestRows)).map((m) => [m.conversationId, m]));
}

export async function loadConversation(view: ViewDeps, userId: string, conversationId: string) {
  const [entry] = await loadConversationEntries(view, userId, conversationId);
  return entry;
}
