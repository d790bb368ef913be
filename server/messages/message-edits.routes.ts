// Changing a sent message: its sender edits the text (POST /api/messages/edit), members react with an emoji of
// the fixed set (POST /api/messages/react); «История изменений» reads the texts edits replaced (message-history.ts).
// Both check the message the same way: one that does not exist, is in a conversation the caller is not a member of,
// or was deleted is «not found» (404), so ids of other conversations reveal nothing. Every change is committed before the answer and before the event reaches the members.
import fp from 'fastify-plugin';
import { memberIds } from '../conversations/membership';
import { isSecret, SECRET_IS_ENCRYPTED } from '../conversations/secret-flag';
import { contractRoute } from '../http/contract-route';
import { badRequest, forbidden, notFound } from '../http/errors';
import { withEveryone } from './mention-everyone';
import { keepVersion, messageVersions } from './message-history';
import { reactionsJson, reactionsOf, toMessages } from './message-view';
import { entitiesJson, formattingOf, mentionable } from './send-message';

const MESSAGE_NOT_FOUND = 'Сообщение не найдено';

export const messageEditsRoutes = fp(
  async (app) => {
    const { db, dialect, lists, realtime } = app;

    /** The visible message with its conversation's members, if the caller is one of them; else 404. */
    async function messageForMember(messageId: string, userId: string) {
      const row = await db
        .selectFrom('messages')
        .selectAll()
        .where('id', '=', messageId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!row) throw notFound(MESSAGE_NOT_FOUND);
      const members = await memberIds(db, row.conversation_id);
      if (!members.includes(userId)) throw notFound(MESSAGE_NOT_FOUND);
      return { row, members };
    }

    contractRoute(app, 'editMessage', async ({ userId, body }) => {
      const { row, members } = await messageForMember(body.messageId, userId);
      // A secret chat's edits and reactions travel as encrypted messages of its own (docs/secret-chats.md).
      if (row.type === 'ENCRYPTED' || (await isSecret(db, row.conversation_id))) throw badRequest(SECRET_IS_ENCRYPTED);
      if (row.sender_id !== userId) throw forbidden('Изменить сообщение может только отправитель');
      const content = body.content.trim();
      if (!content) throw badRequest('Сообщение не может быть пустым');
      const entities = formattingOf(body.content, body.entities);
      const formatting = entitiesJson(entities);
      if (row.type !== 'TEXT' && !row.content) throw badRequest('У этого сообщения нет текста');
      // A poll's question is what people voted on (docs/behaviour.md §10.33 Polls).
      if (row.type === 'POLL') throw badRequest('Вопрос опроса изменить нельзя');
      // The same text and formatting again (a retry, a second click) is not a second edit: no new time, no event.
      if (content === row.content && formatting === (row.entities ?? null))
        return { message: (await toMessages(db, [row]))[0] };
      const editedAt = new Date().toISOString();
      // The new text's mentions replace the old ones (current members only; `@все` as when sending).
      const mentions = await withEveryone(
        db,
        row.conversation_id,
        userId,
        content,
        mentionable(body.mentions, members, userId),
      );
      const mentionsJson = mentions.length ? JSON.stringify(mentions) : null;
      const numUpdatedRows = await db.transaction().execute(async (trx) => {
        const { numUpdatedRows } = await trx
          .updateTable('messages')
          .set({ content, edited_at: editedAt, mentions: mentionsJson, entities: formatting })
          .where('id', '=', row.id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (numUpdatedRows === 0n) return numUpdatedRows;
        // «История изменений»: the text it replaces (never a secret chat's: refused above).
        await keepVersion(trx, row.id, { content: row.content, entities: row.entities ?? null }, editedAt);
        await trx.deleteFrom('message_mentions').where('message_id', '=', row.id).execute();
        if (mentions.length)
          await trx
            .insertInto('message_mentions')
            .values(mentions.map((user_id) => ({ message_id: row.id, user_id, conversation_id: row.conversation_id })))
            .execute();
        return numUpdatedRows;
      });
      if (numUpdatedRows === 0n) throw notFound(MESSAGE_NOT_FOUND); // deleted meanwhile
      const [message] = await toMessages(db, [
        { ...row, content, edited_at: editedAt, mentions: mentionsJson, entities: formatting },
      ]);
      // The list's preview and quotes read the stored text; its cached answers are stale now.
      lists.changed(members, row.conversation_id);
      realtime.toUsers(members, 'message:edited', {
        conversationId: row.conversation_id,
        messageId: row.id,
        content,
        editedAt,
        mentions,
        ...(entities.length ? { entities } : {}),
      });
      return { message };
    });

    contractRoute(app, 'messageEdits', ({ userId, params }) => messageVersions(db, userId, params.id));

    contractRoute(app, 'react', async ({ userId, body }) => {
      const { row, members } = await messageForMember(body.messageId, userId);
      if (await isSecret(db, row.conversation_id)) throw badRequest(SECRET_IS_ENCRYPTED);
      // The row change and the message's reactions column in one transaction; on PostgreSQL the message row is
      // locked first, so two people reacting at once each rewrite the column from the other's committed row.
      const { changed, reactions } = await db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') {
          await trx.selectFrom('messages').select('id').where('id', '=', row.id).forUpdate().execute();
        }
        let changed: bigint;
        if (body.on) {
          const res = await trx
            .insertInto('reactions')
            .values({ message_id: row.id, user_id: userId, emoji: body.emoji, created_at: new Date().toISOString() })
            .onConflict((oc) => oc.columns(['message_id', 'user_id', 'emoji']).doNothing())
            .executeTakeFirst();
          changed = res.numInsertedOrUpdatedRows ?? 0n;
        } else {
          const res = await trx
            .deleteFrom('reactions')
            .where('message_id', '=', row.id)
            .where('user_id', '=', userId)
            .where('emoji', '=', body.emoji)
            .executeTakeFirst();
          changed = res.numDeletedRows;
        }
        const reactions = (await reactionsOf(trx, [row.id])).get(row.id) ?? [];
        if (changed > 0n) {
          await trx
            .updateTable('messages')
            .set({ reactions: reactionsJson(reactions) })
            .where('id', '=', row.id)
            .execute();
        }
        return { changed, reactions };
      });
      if (changed > 0n) {
        lists.changed(members, row.conversation_id);
        realtime.toUsers(members, 'reactions:update', {
          conversationId: row.conversation_id,
          messageId: row.id,
          reactions,
        });
      }
      return { reactions };
    });
  },
  {
    name: 'message-edits-routes',
    encapsulate: true,
    decorators: { fastify: ['db', 'dialect', 'lists', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists'],
  },
);
