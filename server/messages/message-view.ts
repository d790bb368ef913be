// Turns message rows into the contract's Message shape. Works on a batch: a fixed number of queries whatever the
// number of messages (receipts, from the members' read cursors; quotes, attachments, voice notes and call entries
// only when a message has some; reactions come with the row), so lists never query per message.

import type { Selectable } from 'kysely';
import type { Attachment, CallInfo, Message, MessageType, Reaction, SystemInfo } from '../../src/contract/entities';
import { REACTION_EMOJI } from '../../src/contract/limits';
import type { MessageEntity } from '../../src/contract/message-entities';
import type { Database } from '../db/database';
import type { MessagesTable, UploadsTable } from '../db/schema';
import { previewsOf } from '../previews/link-previews';
import { pollsOf } from '../polls/poll-view';
import { receiptsOf } from './read-cursors';
import { threadSummaries } from './thread-summary';

export type MessageRow = Selectable<MessagesTable>;
export type AttachedUpload = Pick<UploadsTable, 'url' | 'kind' | 'original_name' | 'size' | 'width' | 'height'>;

export const toAttachment = (u: AttachedUpload): Attachment => ({
  url: u.url,
  type: u.kind === 'IMAGE' || u.kind === 'AUDIO' ? u.kind : 'FILE',
  name: u.original_name,
  size: Number(u.size),
  width: u.width,
  height: u.height,
});

/** A message that has just been stored, built from what was written (no read-back): nobody has read it yet. */
type Extra =
  | 'forwarded_from_user_id'
  | 'forwarded_from_name'
  | 'mentions'
  | 'control'
  | 'thread_root_id'
  | 'reminder_of'
  | 'import_key'
  | 'import_source_id'
  | 'import_job_id'
  | 'imported_author'
  | 'imported_from'
  | 'entities';
export function freshMessage(
  row: Omit<MessageRow, 'seq' | 'edited_at' | 'reactions' | 'system_info' | Extra> & Partial<Pick<MessageRow, Extra>>,
  replyTo: { id: string; content: string } | null,
  uploads: AttachedUpload[],
  extras: { voice?: Message['voice']; call?: CallInfo; system?: SystemInfo } = {},
): Message {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    senderId: row.sender_id,
    type: row.type as MessageType,
    content: row.content,
    createdAt: row.created_at,
    deletedAt: row.deleted_at,
    editedAt: null,
    clientMessageId: row.client_message_id,
    replyTo,
    attachments: uploads.map(toAttachment),
    receipts: [],
    reactions: [],
    ...(extras.voice ? { voice: extras.voice } : {}),
    ...(extras.call ? { call: extras.call } : {}),
    ...(extras.system ? { system: extras.system } : {}),
    ...rowExtras(row),
  };
}

/** forwardedFrom and mentions, when the row has them (written by the server alone, so trusted). */
function rowExtras(
  row: Partial<Pick<MessageRow, Extra>>,
): Pick<
  Message,
  | 'forwardedFrom'
  | 'mentions'
  | 'control'
  | 'threadRootId'
  | 'reminderOf'
  | 'importedFrom'
  | 'importedAuthor'
  | 'entities'
> {
  return {
    ...(row.imported_from ? { importedFrom: row.imported_from as NonNullable<Message['importedFrom']> } : {}),
    ...(row.imported_author ? { importedAuthor: row.imported_author } : {}),
    ...(row.reminder_of ? { reminderOf: JSON.parse(row.reminder_of) as NonNullable<Message['reminderOf']> } : {}),
    ...(row.thread_root_id ? { threadRootId: row.thread_root_id } : {}),
    ...(row.control ? { control: true as const } : {}),
    ...(row.forwarded_from_user_id
      ? { forwardedFrom: { userId: row.forwarded_from_user_id, name: row.forwarded_from_name ?? '' } }
      : {}),
    ...(row.mentions ? { mentions: JSON.parse(row.mentions) as string[] } : {}),
    // Checked before it was stored (src/contract/message-entities.ts).
    ...(row.entities ? { entities: JSON.parse(row.entities) as MessageEntity[] } : {}),
  };
}

/** A calls row as the CALL entry's `call` field. */
export const toCallInfo = (c: {
  video: number;
  outcome: string | null;
  caller_id: string;
  duration_sec: number | null;
  group_call?: number;
  participant_ids?: string | null;
}): CallInfo => ({
  kind: Number(c.video) ? 'video' : 'audio',
  outcome: (c.outcome ?? 'missed') as CallInfo['outcome'],
  callerId: c.caller_id,
  durationSec: Number(c.duration_sec ?? 0),
  // A group's call also says who took part.
  ...(Number(c.group_call) === 1 ? { participantIds: c.participant_ids ? c.participant_ids.split(',') : [] } : {}),
});

const parseWaveform = (text: string) => (text ? text.split(',').map(Number) : []);

/** What a quote of a deleted message shows instead of its text. */
export const DELETED_REPLY_TEXT = 'Сообщение удалено';

const EMOJI_ORDER = new Map<string, number>(REACTION_EMOJI.map((e, i) => [e, i]));

/** Reaction rows (ordered by time) of one message → the contract's list, emoji in the set's order. */
export function groupReactions(rows: readonly { emoji: string; user_id: string }[]): Reaction[] {
  const by = new Map<string, string[]>();
  for (const r of rows) {
    const users = by.get(r.emoji);
    if (users) users.push(r.user_id);
    else by.set(r.emoji, [r.user_id]);
  }
  // The quick ones in their order, then the others by first use (Map keeps that order; the sort is stable).
  return [...by]
    .sort((a, b) => (EMOJI_ORDER.get(a[0]) ?? 99) - (EMOJI_ORDER.get(b[0]) ?? 99))
    .map(([emoji, userIds]) => ({ emoji, userIds }));
}

/** messages.reactions as the contract has it (written by reactionsJson alone, so it is trusted). */
export const storedReactions = (json: string | null | undefined): Reaction[] =>
  json ? (JSON.parse(json) as Reaction[]) : [];

/** What messages.reactions holds for a message with these reactions. */
export const reactionsJson = (reactions: Reaction[]) => (reactions.length ? JSON.stringify(reactions) : null);

/** One query for the reactions of a batch of messages (read from reactions_by_message alone, in order), per message. */
export async function reactionsOf(db: Database, messageIds: string[]): Promise<Map<string, Reaction[]>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('reactions')
    .select(['message_id', 'created_at', 'emoji', 'user_id'])
    .where('message_id', 'in', messageIds)
    .orderBy('message_id')
    .orderBy('created_at')
    .execute();
  const byMessage = new Map<string, { emoji: string; user_id: string }[]>();
  for (const r of rows) {
    const l = byMessage.get(r.message_id);
    if (l) l.push(r);
    else byMessage.set(r.message_id, [r]);
  }
  return new Map([...byMessage].map(([id, list]) => [id, groupReactions(list)]));
}

/**
 * The contract's messages for these rows. `viewerId`: whose eyes a poll is seen with (their own choice, a quiz's
 * answer once they voted); without it a poll shows the counts alone.
 */
export async function toMessages(db: Database, rows: MessageRow[], viewerId?: string): Promise<Message[]> {
  if (rows.length === 0) return [];
  const replyIds = [...new Set(rows.map((r) => r.reply_to_id).filter((x): x is string => Boolean(x)))];
  // TEXT messages never carry attachments (the send route refuses them).
  const withFiles = rows
    .filter(
      (r) =>
        r.type !== 'TEXT' && r.type !== 'CALL' && r.type !== 'SYSTEM' && r.type !== 'ENCRYPTED' && r.type !== 'POLL',
    )
    .map((r) => r.id);
  const voiceIds = rows.filter((r) => r.type === 'VOICE').map((r) => r.id);
  const callIds = rows.filter((r) => r.type === 'CALL').map((r) => r.id);
  // Roots of threads are ordinary messages of a group: any message that is not itself a reply may have replies.
  const rootIds = rows
    .filter((r) => !r.thread_root_id && r.type !== 'SYSTEM' && r.type !== 'ENCRYPTED')
    .map((r) => r.id);
  const texts = rows.filter((r) => r.type === 'TEXT').map((r) => r.id);
  const pollRows = rows.filter((r) => r.type === 'POLL');
  const [replies, attachments, receipts, voices, calls, threads, previews, polls] = await Promise.all([
    replyIds.length
      ? db.selectFrom('messages').select(['id', 'content', 'deleted_at']).where('id', 'in', replyIds).execute()
      : Promise.resolve([]),
    withFiles.length
      ? db
          .selectFrom('message_attachments as a')
          .innerJoin('uploads as u', 'u.id', 'a.upload_id')
          .select(['a.message_id', 'a.position', 'u.url', 'u.kind', 'u.original_name', 'u.size', 'u.width', 'u.height'])
          .where('a.message_id', 'in', withFiles)
          .orderBy('a.message_id')
          .orderBy('a.position')
          .execute()
      : Promise.resolve([]),
    receiptsOf(db, rows),
    voiceIds.length
      ? db.selectFrom('voice_notes').selectAll().where('message_id', 'in', voiceIds).execute()
      : Promise.resolve([]),
    callIds.length
      ? db
          .selectFrom('calls')
          .select(['message_id', 'video', 'outcome', 'caller_id', 'duration_sec', 'group_call', 'participant_ids'])
          .where('message_id', 'in', callIds)
          .execute()
      : Promise.resolve([]),
    threadSummaries(db, rootIds),
    previewsOf(db, texts),
    pollsOf(db, pollRows, viewerId ? { userId: viewerId } : 'others'),
  ]);
  const voiceBy = new Map(
    voices.map((v) => [v.message_id, { durationMs: Number(v.duration_ms), waveform: parseWaveform(v.waveform) }]),
  );
  const callBy = new Map(calls.map((c) => [c.message_id as string, toCallInfo(c)]));
  const replyById = new Map(replies.map((r) => [r.id, r]));
  const group = <T extends { message_id: string }>(list: T[]) => {
    const m = new Map<string, T[]>();
    for (const x of list) {
      const l = m.get(x.message_id);
      if (l) l.push(x);
      else m.set(x.message_id, [x]);
    }
    return m;
  };
  const attachmentsBy = group(attachments);
  return rows.map((r) => {
    const reply = r.reply_to_id ? replyById.get(r.reply_to_id) : undefined;
    return {
      id: r.id,
      conversationId: r.conversation_id,
      senderId: r.sender_id,
      type: r.type as MessageType,
      content: r.content,
      createdAt: r.created_at,
      deletedAt: r.deleted_at,
      editedAt: r.edited_at ?? null,
      clientMessageId: r.client_message_id,
      replyTo: reply ? { id: reply.id, content: reply.deleted_at ? DELETED_REPLY_TEXT : reply.content } : null,
      attachments: (attachmentsBy.get(r.id) ?? []).map(toAttachment),
      receipts: receipts.get(r.id) ?? [],
      reactions: storedReactions(r.reactions),
      ...(voiceBy.has(r.id) ? { voice: voiceBy.get(r.id) } : {}),
      ...(callBy.has(r.id) ? { call: callBy.get(r.id) } : {}),
      // Written by the server alone (system-entries.ts), so it is trusted.
      ...(r.system_info ? { system: JSON.parse(r.system_info) as SystemInfo } : {}),
      ...rowExtras(r),
      ...(threads.has(r.id) ? { thread: threads.get(r.id) } : {}),
      ...(previews.has(r.id) ? { preview: previews.get(r.id) } : {}),
      ...(polls.has(r.id) ? { poll: polls.get(r.id) } : {}),
    };
  });
}
