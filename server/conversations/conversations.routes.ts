// GET/POST /api/conversations and POST /api/conversations/with. A group's participants must be the caller's
// accepted friends; a direct chat is opened with whoever's «Кто может мне писать» allows it (message-privacy.ts), and
// exists once per pair (direct_key is unique).
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { Conversation } from '../../src/contract/entities';
import { isUniqueViolation } from '../db/database';
import { allInDirectory } from '../directory/directory';
import { acceptsBrotli, brotliOf } from '../http/brotli-answer';
import { contractRoute, SerializedJson } from '../http/contract-route';
import { badRequest, forbidden, notFound } from '../http/errors';
import { ensureSavedChat, savedChatId } from '../saved/saved-chat';
import { requireMayWrite } from '../users/message-privacy';
import { loadConversation, loadListedEntries } from './conversation-view';
import { FRIENDS_ONLY } from './group-members';
import { joinParts, type ListPart, listPart, patchParts } from './list-parts';
import { rememberMembers } from './membership';
import { writeSystemEntry } from './system-entries';

const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);

/** Conversation lists and creation. */
export const conversationsRoutes = fp(
  async (app) => {
    const { blocks, db, lists, realtime } = app;
    /** What the list's entries are read with. */
    const view = { db, realtime, blocks };

    /** A group may take friends and, with «Каталог участников» on, anyone found there (docs/behaviour.md §10.25). */
    async function requireGroupPeople(userId: string, others: string[]): Promise<void> {
      const rows = await db
        .selectFrom('contacts')
        .select('pair_key')
        .where(
          'pair_key',
          'in',
          others.map((o) => pairKey(userId, o)),
        )
        .where('status', '=', 'ACCEPTED')
        .execute();
      const friends = new Set(rows.map((r) => r.pair_key));
      const strangers = others.filter((o) => !friends.has(pairKey(userId, o)));
      if (!(await allInDirectory(db, userId, strangers))) throw forbidden(FRIENDS_ONLY);
    }

    async function insertConversation(
      id: string,
      creator: string,
      members: string[],
      fields: { title: string | null; isGroup: boolean; directKey: string | null },
    ): Promise<void> {
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('conversations')
          .values({
            id,
            title: fields.title,
            is_group: fields.isGroup ? 1 : 0,
            direct_key: fields.directKey,
            created_by: creator,
            created_at: now,
          })
          .execute();
        await trx
          .insertInto('conversation_members')
          .values(
            members.map((user_id) => ({
              conversation_id: id,
              user_id,
              joined_at: now,
              // The creator owns a group; a direct chat has no owner.
              role: fields.isGroup && user_id === creator ? 'OWNER' : 'MEMBER',
            })),
          )
          .execute();
        // «Анна создал(а) группу» opens a group's history and puts it at the top of everyone's list.
        if (fields.isGroup) await writeSystemEntry(trx, id, creator, 'created', [], null, new Date(now));
      });
      rememberMembers(db, id, members, fields.isGroup ? creator : null);
      lists.changed(members, id);
    }

    async function announce(userId: string, conversationId: string, members: string[]): Promise<Conversation> {
      const entry = await loadConversation(view, userId, conversationId);
      // Every member, the creator's other tabs included; clients deduplicate by id.
      realtime.toUsers(members, 'conversations:new', { conversation: entry.conversation });
      return entry.conversation;
    }

    /** The one direct conversation of the pair; created on first use, also under concurrent calls. */
    async function directWith(userId: string, otherId: string): Promise<Conversation> {
      if (otherId === userId) throw badRequest('Нельзя начать беседу с самим собой');
      const key = pairKey(userId, otherId);
      const find = () => db.selectFrom('conversations').select('id').where('direct_key', '=', key).executeTakeFirst();
      const existing = await find();
      if (existing) return (await loadConversation(view, userId, existing.id)).conversation;
      const other = await db.selectFrom('users').select('id').where('id', '=', otherId).executeTakeFirst();
      if (!other) throw notFound('Пользователь не найден');
      await requireMayWrite({ db, blocks }, userId, otherId);
      const id = randomUUID();
      try {
        await insertConversation(id, userId, [userId, otherId], { title: null, isGroup: false, directKey: key });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const winner = await find();
        if (!winner) throw err;
        return (await loadConversation(view, userId, winner.id)).conversation;
      }
      return announce(userId, id, [userId, otherId]);
    }

    // Kept as sent until something in it changes (list-cache.ts): most requests are the 20-s refresh of a list
    // that has not changed, and after a change inside some conversations only their entries are built again.
    // Sent compressed to a client that takes Brotli, compressed once per kept answer (brotli-answer.ts).
    contractRoute(app, 'conversations', async ({ userId, serialize, req }) => {
      // An account that still lacks «Избранное» gets it here (once per process, then a Set lookup).
      if (await ensureSavedChat(db, userId)) lists.changed([userId], savedChatId(userId));
      const compress = acceptsBrotli(req.headers['accept-encoding']);
      const answer = (json: Buffer) => new SerializedJson(json, compress ? brotliOf(json) : null);
      const cached = lists.read(userId);
      if (cached !== undefined) return answer(cached);
      const ticket = lists.begin(userId);
      const kept = lists.stale(userId);
      const partOf = listPart.bind(null, serialize);
      let parts: ListPart[];
      if (kept) {
        const fresh = await Promise.all([...kept.stale].map((id) => loadListedEntries(view, userId, id)));
        parts = patchParts(kept.parts, kept.stale, fresh.flat().map(partOf));
      } else {
        parts = (await loadListedEntries(view, userId)).map(partOf);
      }
      const json = joinParts(parts);
      lists.keep(ticket, json, parts);
      return answer(json);
    });

    contractRoute(app, 'conversationWith', async ({ userId, body }) => ({
      conversation: await directWith(userId, body.userId),
    }));

    contractRoute(app, 'createConversation', async ({ userId, body }) => {
      const others = [...new Set(body.participantIds)].filter((id) => id !== userId);
      if (others.length === 0) throw badRequest('Выберите участников');
      const title = body.title?.trim() || null;
      // One person and no group asked for: that is the direct conversation.
      if (others.length === 1 && !body.isGroup) return { conversation: await directWith(userId, others[0]) };
      await requireGroupPeople(userId, others);
      const id = randomUUID();
      const members = [userId, ...others];
      await insertConversation(id, userId, members, { title, isGroup: true, directKey: null });
      return { conversation: await announce(userId, id, members) };
    });
  },
  {
    name: 'conversations-routes',
    encapsulate: true,
    decorators: { fastify: ['blocks', 'db', 'lists', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'blocks'],
  },
);
