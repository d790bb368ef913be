// Chat folders («Папки», docs/behaviour.md §10.47): one's own named filters of the chat list, at most FOLDERS.max,
// in the order of their tabs. Only the owner reads or changes a folder (another's is «Папка не найдена»); a chat
// named in one must be the owner's (a chat they left stays named but stops matching: every read joins the owner's
// memberships). After each change the whole list goes to every socket of the owner (folders:updated, through the
// user's room, so every server process's sockets hear it with the Redis adapter).
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { ChatFolder } from '../../src/contract/api';
import { FOLDER_TEXTS, FOLDERS, type FolderDraft } from '../../src/contract/chat-folders';
import type { Database } from '../db/database';
import { contractRoute } from '../http/contract-route';
import { badRequest, notFound } from '../http/errors';

type Executor = Pick<Database, 'selectFrom'>;

/** The owner's folders in order, each naming only chats the owner is still a member of. */
export async function foldersOf(db: Executor, userId: string): Promise<ChatFolder[]> {
  const rows = await db
    .selectFrom('chat_folders')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('position')
    .orderBy('created_at')
    .execute();
  if (rows.length === 0) return [];
  const chats = await db
    .selectFrom('chat_folder_chats as f')
    .innerJoin('conversation_members as m', (j) =>
      j.onRef('m.conversation_id', '=', 'f.conversation_id').on('m.user_id', '=', userId),
    )
    .select(['f.folder_id', 'f.conversation_id', 'f.excluded'])
    .where(
      'f.folder_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('f.conversation_id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    rules: {
      direct: r.rule_direct === 1,
      groups: r.rule_groups === 1,
      unread: r.rule_unread === 1,
      muted: r.rule_muted === 1,
    },
    includedIds: chats.filter((c) => c.folder_id === r.id && c.excluded === 0).map((c) => c.conversation_id),
    excludedIds: chats.filter((c) => c.folder_id === r.id && c.excluded === 1).map((c) => c.conversation_id),
  }));
}

export const foldersRoutes = fp(
  async (app) => {
    const { clock, db, dialect, realtime } = app;

    /** Every chat the draft names is the user's; the first that is not is refused as not found. */
    async function checkChats(userId: string, draft: FolderDraft): Promise<void> {
      const named = [...new Set([...draft.includedIds, ...draft.excludedIds])];
      if (named.length === 0) return;
      const mine = await db
        .selectFrom('conversation_members')
        .select('conversation_id')
        .where('user_id', '=', userId)
        .where('conversation_id', 'in', named)
        .execute();
      if (mine.length !== named.length) throw notFound('Беседа не найдена');
      if (draft.includedIds.some((id) => draft.excludedIds.includes(id))) {
        throw badRequest('Чат не может быть и в папке, и вне её');
      }
    }

    /** Locks the owner's folders on PostgreSQL (two changes at once would both see room for one more). */
    async function lockOwner(trx: Database, userId: string): Promise<void> {
      if (dialect === 'postgres')
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    }

    async function writeChats(trx: Database, folderId: string, draft: FolderDraft): Promise<void> {
      await trx.deleteFrom('chat_folder_chats').where('folder_id', '=', folderId).execute();
      const values = [
        ...[...new Set(draft.includedIds)].map((id) => ({ folder_id: folderId, conversation_id: id, excluded: 0 })),
        ...[...new Set(draft.excludedIds)].map((id) => ({ folder_id: folderId, conversation_id: id, excluded: 1 })),
      ];
      if (values.length) await trx.insertInto('chat_folder_chats').values(values).execute();
    }

    const rules = (draft: FolderDraft) => ({
      rule_direct: draft.rules.direct ? 1 : 0,
      rule_groups: draft.rules.groups ? 1 : 0,
      rule_unread: draft.rules.unread ? 1 : 0,
      rule_muted: draft.rules.muted ? 1 : 0,
    });

    /** Tells every device of the owner, then answers with the folder (or the list) as it now is. */
    async function changed(userId: string): Promise<ChatFolder[]> {
      const folders = await foldersOf(db, userId);
      realtime.toUser(userId, 'folders:updated', { folders });
      return folders;
    }

    async function owned(trx: Executor, userId: string, id: string): Promise<void> {
      const row = await trx
        .selectFrom('chat_folders')
        .select('id')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) throw notFound(FOLDER_TEXTS.notFound);
    }

    const found = (folders: ChatFolder[], id: string): ChatFolder => {
      const folder = folders.find((f) => f.id === id);
      // Deleted by another device between the write and the read.
      if (!folder) throw notFound(FOLDER_TEXTS.notFound);
      return folder;
    };

    contractRoute(app, 'folders', async ({ userId }) => ({ folders: await foldersOf(db, userId) }));

    contractRoute(app, 'createFolder', async ({ userId, body }) => {
      await checkChats(userId, body);
      const id = randomUUID();
      await db.transaction().execute(async (trx) => {
        await lockOwner(trx, userId);
        const { n, last } = (await trx
          .selectFrom('chat_folders')
          .select((e) => [e.fn.countAll<number>().as('n'), e.fn.max('position').as('last')])
          .where('user_id', '=', userId)
          .executeTakeFirst()) ?? { n: 0, last: null };
        if (Number(n) >= FOLDERS.max) throw badRequest(FOLDER_TEXTS.tooMany);
        await trx
          .insertInto('chat_folders')
          .values({
            id,
            user_id: userId,
            name: body.name,
            position: last === null ? 0 : Number(last) + 1,
            ...rules(body),
            created_at: new Date(clock.now()).toISOString(),
          })
          .execute();
        await writeChats(trx, id, body);
      });
      return { folder: found(await changed(userId), id) };
    });

    contractRoute(app, 'updateFolder', async ({ userId, params, body }) => {
      await owned(db, userId, params.id);
      await checkChats(userId, body);
      await db.transaction().execute(async (trx) => {
        await owned(trx, userId, params.id);
        await trx
          .updateTable('chat_folders')
          .set({ name: body.name, ...rules(body) })
          .where('id', '=', params.id)
          .execute();
        await writeChats(trx, params.id, body);
      });
      return { folder: found(await changed(userId), params.id) };
    });

    contractRoute(app, 'deleteFolder', async ({ userId, params }) => {
      await owned(db, userId, params.id);
      await db.deleteFrom('chat_folders').where('id', '=', params.id).where('user_id', '=', userId).execute();
      await changed(userId);
      return { ok: true as const };
    });

    contractRoute(app, 'reorderFolders', async ({ userId, body }) => {
      await db.transaction().execute(async (trx) => {
        await lockOwner(trx, userId);
        const ids = (await trx.selectFrom('chat_folders').select('id').where('user_id', '=', userId).execute()).map(
          (r) => r.id,
        );
        const asked = new Set(body.ids);
        if (asked.size !== body.ids.length || asked.size !== ids.length || ids.some((id) => !asked.has(id))) {
          throw badRequest(FOLDER_TEXTS.order);
        }
        for (const [position, id] of body.ids.entries()) {
          await trx.updateTable('chat_folders').set({ position }).where('id', '=', id).execute();
        }
      });
      return { folders: await changed(userId) };
    });
  },
  {
    name: 'folders-routes',
    encapsulate: true,
    decorators: { fastify: ['clock', 'db', 'dialect', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime'],
  },
);
