// Pinned messages (docs/behaviour.md §10.19): in a direct chat either person pins, in a group the owner and admins.
// Pinning writes a group entry «… закрепил(а) сообщение «…»»; at most LIMITS.pinsMax are kept (the oldest goes).
// Every member hears `conversation:pins` with the list as it is now, newest pin first.
import type { Message, SystemKind } from '../../src/contract/entities';
import { LIMITS } from '../../src/contract/limits';
import type { ConversationListCache } from '../conversations/list-cache';
import { memberOf, memberIds } from '../conversations/membership';
import { writeSystemEntry } from '../conversations/system-entries';
import type { Database } from '../db/database';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { RealtimeHub } from '../realtime/hub';
import { MESSAGE_NOT_FOUND } from './delete-message';
import { toMessages } from './message-view';

export interface PinDeps {
  db: Database;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toUsers' | 'toConversation'>;
}

/** The excerpt a pin's entry quotes: the start of the text, or what the message holds in words. */
function excerptOf(row: { type: string; content: string }, fileName: string | null): string {
  const text = row.content.trim().replace(/\s+/g, ' ');
  if (text) return text.length > 60 ? `${text.slice(0, 59)}…` : text;
  if (row.type === 'IMAGE') return 'Фото';
  if (row.type === 'VOICE') return 'Голосовое сообщение';
  return fileName ? `Файл: ${fileName}` : 'Файл';
}

export function createPins({ db, lists, realtime }: PinDeps) {
  /** The conversation's pinned messages that are still there, newest pin first. */
  async function pinsOf(conversationId: string, viewer: string): Promise<Message[]> {
    const rows = await db
      .selectFrom('message_pins as p')
      .innerJoin('messages as m', 'm.id', 'p.message_id')
      .selectAll('m')
      .where('p.conversation_id', '=', conversationId)
      .where('m.deleted_at', 'is', null)
      .orderBy('p.pinned_at', 'desc')
      .orderBy('m.seq', 'desc')
      .execute();
    const me = await memberOf(db, conversationId, viewer);
    // One who joined later sees only what they can read.
    return toMessages(
      db,
      rows.filter((r) => me.visibleFromSeq === 0 || Number(r.seq) > me.visibleFromSeq),
      viewer,
    );
  }

  async function list(userId: string, conversationId: string): Promise<{ pins: Message[] }> {
    await memberOf(db, conversationId, userId);
    return { pins: await pinsOf(conversationId, userId) };
  }

  async function pin(userId: string, messageId: string, on: boolean): Promise<{ pins: Message[] }> {
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', messageId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(MESSAGE_NOT_FOUND);
    const members = await memberIds(db, row.conversation_id);
    if (!members.includes(userId)) throw notFound(MESSAGE_NOT_FOUND);
    const me = await memberOf(db, row.conversation_id, userId);
    const conversation = await db
      .selectFrom('conversations')
      .select(['is_group', 'direct_key'])
      .where('id', '=', row.conversation_id)
      .executeTakeFirstOrThrow();
    const group = !conversation.direct_key;
    if (group && me.role === 'MEMBER') throw forbidden('Закреплять сообщения могут владелец и администраторы группы');
    if (row.type === 'SYSTEM' || row.type === 'CALL' || row.control) throw badRequest('Это сообщение нельзя закрепить');

    const entry = await db.transaction().execute(async (trx) => {
      if (!on) {
        await trx
          .deleteFrom('message_pins')
          .where('conversation_id', '=', row.conversation_id)
          .where('message_id', '=', row.id)
          .execute();
        return null;
      }
      const added = await trx
        .insertInto('message_pins')
        .values({
          conversation_id: row.conversation_id,
          message_id: row.id,
          pinned_by: userId,
          pinned_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.columns(['conversation_id', 'message_id']).doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows ?? 0) === 0) return null; // pinned already
      // Past the limit the oldest pin goes.
      const all = await trx
        .selectFrom('message_pins')
        .select(['message_id'])
        .where('conversation_id', '=', row.conversation_id)
        .orderBy('pinned_at', 'desc')
        .execute();
      const extra = all.slice(LIMITS.pinsMax).map((p) => p.message_id);
      if (extra.length)
        await trx
          .deleteFrom('message_pins')
          .where('conversation_id', '=', row.conversation_id)
          .where('message_id', 'in', extra)
          .execute();
      const file =
        row.type === 'FILE'
          ? await trx
              .selectFrom('message_attachments as a')
              .innerJoin('uploads as u', 'u.id', 'a.upload_id')
              .select('u.original_name')
              .where('a.message_id', '=', row.id)
              .orderBy('a.position')
              .executeTakeFirst()
          : undefined;
      const kind: SystemKind = 'pinned';
      return writeSystemEntry(trx, row.conversation_id, userId, kind, [], null, new Date(), {
        messageId: row.id,
        excerpt: excerptOf(row, file?.original_name ?? null),
      });
    });
    const pins = await pinsOf(row.conversation_id, userId);
    lists.changed(members, row.conversation_id);
    if (entry) realtime.toConversation(row.conversation_id, 'message:new', { message: entry });
    realtime.toUsers(members, 'conversation:pins', { conversationId: row.conversation_id, pins });
    return { pins };
  }

  /** A pinned message was deleted for everyone: the members hear the shorter list (nothing when it was not pinned). */
  async function deleted(conversationId: string, messageId: string, members: readonly string[], viewer: string) {
    const was = await db
      .selectFrom('message_pins')
      .select('message_id')
      .where('conversation_id', '=', conversationId)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    if (!was) return;
    await db
      .deleteFrom('message_pins')
      .where('conversation_id', '=', conversationId)
      .where('message_id', '=', messageId)
      .execute();
    realtime.toUsers(members, 'conversation:pins', { conversationId, pins: await pinsOf(conversationId, viewer) });
  }

  return { list, pin, pinsOf, deleted };
}
