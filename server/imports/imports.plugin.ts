// History import's routes (docs/behaviour.md §10.38, docs/history-import.md «Server»): the export is streamed to this
// process's disk (IMPORT_MAX_BYTES), its ZIP directory checked at once (a zip bomb or a path out of the archive is a
// 400 and nothing is kept), then analysed and imported in the background (import-runner.ts). Only the importer sees a
// job; into a group only its owner and admins import, into a direct chat either person; a new group is the
// importer's, with the matched people who are their friends. A secret chat's messages arrive encrypted in batches.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fp from 'fastify-plugin';
import { importUploadRoute } from '../../src/contract/api';
import { ImportFormatError, zipExportFiles } from '../../src/contract/history-import';
import type { ImportJob } from '../../src/contract/imports';
import { loadConversation } from '../conversations/conversation-view';
import { memberIds, memberOf, rememberMembers } from '../conversations/membership';
import { isSecret } from '../conversations/secret-flag';
import { writeSystemEntry } from '../conversations/system-entries';
import { contractRoute } from '../http/contract-route';
import { badRequest, conflict, forbidden, HttpError, notFound, zodMessage } from '../http/errors';
import { newMessageId } from '../messages/message-id';
import type { UploadStorage } from '../uploads/storage';
import { exportPath, fileSource, friendsOf, type ImportJobRow, NOT_FOUND, toImportJob } from './import-jobs';
import { createImportRunner, IMPORT_TIMINGS, type ImportRunner, reserveSeqs } from './import-runner';
import { requestGate } from './yield-to-requests';

const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed'];
export const ONLY_ADMINS = 'Импортировать историю в группу могут только владелец и администраторы';
export const NOT_IN_SECRET = 'В секретный чат история импортируется из браузера: сообщения шифруются на устройстве';
export const NOT_READY = 'Импорт ещё не готов к запуску';
export const ALREADY_ENDED = 'Этот импорт уже завершён';
export const NOT_A_ZIP = 'Ожидается ZIP-архив экспорта (application/zip)';
export const EMPTY_EXPORT = 'Файл экспорта пустой';
export const tooLargeText = (max: number) =>
  `Экспорт слишком большой: не больше ${Math.round((max / 1024 ** 3) * 10) / 10} ГБ`;

const runners = new WeakMap<object, ImportRunner>();
/** The runner of the server on this database (tests wait for its passes). */
export const importRunnerOf = (db: object) => runners.get(db);

export const importsRoutes = fp<{ storage: UploadStorage }>(
  async (app, { storage }) => {
    const { blocks, clock, config, db, lists, realtime, authenticate } = app;
    const dir = path.join(config.dataDir, 'imports');
    fs.mkdirSync(dir, { recursive: true });
    const runner = createImportRunner({
      db,
      clock,
      storage,
      dir,
      realtime,
      lists,
      fileLimitBytes: config.uploadLimitBytes,
      log: app.log,
      quiet: requestGate(app.server, IMPORT_TIMINGS.yieldMaxMs).quiet,
    });
    runners.set(db, runner);
    app.addHook('onReady', async () => runner.start());
    app.addHook('onClose', async () => runner.stop());

    const now = () => new Date(clock.now()).toISOString();

    async function own(userId: string, id: string): Promise<ImportJobRow> {
      const row = await db
        .selectFrom('import_jobs')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      // Another person's job answers as one that does not exist.
      if (!row) throw notFound(NOT_FOUND);
      return row;
    }

    /** Who may import into this chat: a member; in a group its owner or an admin; never a secret chat here. */
    async function requireImporter(userId: string, conversationId: string) {
      const me = await memberOf(db, conversationId, userId);
      const conversation = await db
        .selectFrom('conversations')
        .select(['is_group'])
        .where('id', '=', conversationId)
        .executeTakeFirstOrThrow();
      if (await isSecret(db, conversationId)) throw badRequest(NOT_IN_SECRET);
      if (conversation.is_group && me.role !== 'OWNER' && me.role !== 'ADMIN') throw forbidden(ONLY_ADMINS);
    }

    // The body is read by the route as a stream, never buffered.
    app.addContentTypeParser([...ZIP_TYPES, 'application/octet-stream'], (_req, payload, done) => done(null, payload));

    app.post(`/api${importUploadRoute.path}`, {
      onRequest: async (req) => {
        req.userId = await authenticate(req);
        const length = Number(req.headers['content-length']);
        if (Number.isFinite(length) && length > config.importMaxBytes)
          throw new HttpError(413, tooLargeText(config.importMaxBytes));
      },
      onSend: async (req, reply, payload) => {
        const body = req.body as { readableEnded?: boolean } | undefined;
        if (!body?.readableEnded) reply.header('connection', 'close');
        return payload;
      },
      handler: async (req, reply) => {
        const userId = req.userId as string;
        const query = importUploadRoute.query.safeParse(req.query ?? {});
        if (!query.success) throw badRequest(zodMessage(query.error));
        const { conversationId } = query.data;
        if (conversationId) await requireImporter(userId, conversationId);
        const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        if (![...ZIP_TYPES, 'application/octet-stream'].includes(type)) throw new HttpError(415, NOT_A_ZIP);

        const id = randomUUID();
        const file = exportPath(dir, id);
        const hash = createHash('sha256');
        let size = 0;
        const max = config.importMaxBytes;
        const count = new Transform({
          transform(chunk: Buffer, _enc, done) {
            size += chunk.length;
            if (size > max) return done(new HttpError(413, tooLargeText(max)));
            hash.update(chunk);
            done(null, chunk);
          },
        });
        try {
          await pipeline(req.body as NodeJS.ReadableStream, count, fs.createWriteStream(file, { mode: 0o600 }));
          if (size === 0) throw badRequest(EMPTY_EXPORT);
          // The archive's directory now: a zip bomb, a path out of the archive or no ZIP at all is refused at once.
          const src = await fileSource(file);
          try {
            await zipExportFiles(src);
          } finally {
            await src.close();
          }
        } catch (err) {
          await fs.promises.rm(file, { force: true });
          if (err instanceof ImportFormatError) throw badRequest(err.message);
          if (err instanceof HttpError && err.statusCode === 413) reply.header('connection', 'close');
          throw err;
        }
        const row: ImportJobRow = {
          id,
          user_id: userId,
          status: 'analysing',
          conversation_id: conversationId ?? null,
          new_group: conversationId ? 0 : 1,
          source: null,
          chat_name: null,
          chats: null,
          chat_id: null,
          authors: null,
          mapping: null,
          title: null,
          total: 0,
          done: 0,
          imported: 0,
          error: null,
          file_hash: hash.digest('hex'),
          file_size: size,
          seq_top: null,
          claimed_at: null,
          created_at: now(),
          updated_at: now(),
        };
        await db.insertInto('import_jobs').values(row).execute();
        runner.kick();
        reply.status(201);
        return importUploadRoute.response.parse({ job: toImportJob(row) });
      },
    });

    contractRoute(app, 'imports', async ({ userId }) => {
      const rows = await db
        .selectFrom('import_jobs')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(20)
        .execute();
      return { jobs: rows.map(toImportJob) };
    });

    contractRoute(app, 'importJob', async ({ userId, params }) => ({ job: toImportJob(await own(userId, params.id)) }));

    // An account export's chat: analysed again for that chat's authors.
    contractRoute(app, 'importChoose', async ({ userId, params, body }) => {
      const row = await own(userId, params.id);
      if (row.status !== 'mapping') throw conflict(NOT_READY);
      const chats = (row.chats ? JSON.parse(row.chats) : []) as { id: string }[];
      if (!chats.some((c) => c.id === body.chatId)) throw badRequest('В экспорте нет такого чата');
      await db
        .updateTable('import_jobs')
        .set({ status: 'analysing', chat_id: body.chatId, updated_at: now() })
        .where('id', '=', row.id)
        .where('status', '=', 'mapping')
        .execute();
      runner.kick();
      return { job: toImportJob(await own(userId, row.id)) };
    });

    contractRoute(app, 'importStart', async ({ userId, params, body }) => {
      const row = await own(userId, params.id);
      if (row.status !== 'mapping') throw conflict(NOT_READY);
      const authors = new Set(((row.authors ? JSON.parse(row.authors) : []) as { key: string }[]).map((a) => a.key));
      const unknown = Object.keys(body.mapping).filter((k) => !authors.has(k));
      if (unknown.length) throw badRequest(`В экспорте нет автора «${unknown[0]?.slice(0, 64)}»`);
      const chosen = [...new Set(Object.values(body.mapping).filter((v): v is string => Boolean(v)))];
      let conversationId = row.conversation_id;
      if (conversationId) {
        // The chat may have changed since the upload.
        await requireImporter(userId, conversationId);
        const members = new Set(await memberIds(db, conversationId));
        if (chosen.some((u) => !members.has(u)))
          throw badRequest('Автора можно сопоставить только с участником беседы');
      } else {
        const friends = new Set([userId, ...(await friendsOf(db, userId))]);
        if (chosen.some((u) => !friends.has(u)))
          throw badRequest(
            'В новую группу можно добавить только друзей: сопоставьте автора с другом или оставьте именем',
          );
      }
      const top = await reserveSeqs(db, Number(row.total) + 1);
      let created: string[] | null = null;
      await db.transaction().execute(async (trx) => {
        if (!conversationId) {
          conversationId = randomUUID();
          created = [userId, ...chosen.filter((u) => u !== userId)];
          const at = now();
          await trx
            .insertInto('conversations')
            .values({
              id: conversationId,
              title: body.title ?? row.chat_name ?? 'Импортированный чат',
              is_group: 1,
              direct_key: null,
              created_by: userId,
              created_at: at,
            })
            .execute();
          await trx
            .insertInto('conversation_members')
            .values(
              created.map((user_id) => ({
                conversation_id: conversationId as string,
                user_id,
                joined_at: at,
                role: user_id === userId ? 'OWNER' : 'MEMBER',
              })),
            )
            .execute();
          await writeSystemEntry(trx, conversationId, userId, 'created', [], null, new Date(clock.now()));
        }
        const r = await trx
          .updateTable('import_jobs')
          .set({
            status: 'running',
            conversation_id: conversationId,
            mapping: JSON.stringify(body.mapping),
            title: body.title ?? null,
            seq_top: top,
            updated_at: now(),
          })
          .where('id', '=', row.id)
          .where('status', '=', 'mapping')
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw conflict(NOT_READY);
      });
      if (created && conversationId) {
        const members: string[] = created;
        rememberMembers(db, conversationId, members, userId);
        lists.changed(members, conversationId);
        const entry = await loadConversation({ db, realtime, blocks }, userId, conversationId);
        realtime.toUsers(members, 'conversations:new', { conversation: entry.conversation });
      }
      runner.kick();
      const job = toImportJob(await own(userId, row.id));
      runner.announce(job, userId, true);
      return { job };
    });

    // A secret chat's export, encrypted on the device: stored as ENCRYPTED messages from the importer at their
    // reserved places, once per (chat, export, message). The server never sees what they say.
    contractRoute(app, 'importSecretBatch', async ({ userId, body }) => {
      await memberOf(db, body.conversationId, userId);
      if (!(await isSecret(db, body.conversationId))) throw badRequest('Это не секретный чат');
      const limit = clock.now() + 24 * 3600_000;
      for (const m of body.messages) {
        if (m.index >= body.total) throw badRequest('index: за пределами экспорта');
        if (Date.parse(m.createdAt) > limit)
          throw badRequest('Сообщение датировано будущим: экспорт повреждён или изменён');
      }
      const importKey = `secret:${body.importKey}`;
      // One job per chat and export: the first batch makes it and reserves the places.
      let job = await db
        .selectFrom('import_jobs')
        .selectAll()
        .where('user_id', '=', userId)
        .where('conversation_id', '=', body.conversationId)
        .where('file_hash', '=', importKey)
        .executeTakeFirst();
      if (!job) {
        const top = await reserveSeqs(db, body.total + 1);
        const fresh: ImportJobRow = {
          id: randomUUID(),
          user_id: userId,
          status: 'running',
          conversation_id: body.conversationId,
          new_group: 0,
          source: body.source,
          chat_name: null,
          chats: null,
          chat_id: null,
          authors: null,
          mapping: null,
          title: null,
          total: body.total,
          done: 0,
          imported: 0,
          error: null,
          file_hash: importKey,
          file_size: 0,
          seq_top: top,
          claimed_at: null,
          created_at: now(),
          updated_at: now(),
        };
        await db.insertInto('import_jobs').values(fresh).execute();
        job = fresh;
      }
      if (Number(job.total) !== body.total) throw badRequest('total: не совпадает с первой пачкой этого экспорта');
      const top = Number(job.seq_top);
      const jobId = job.id;
      let stored = 0;
      await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('messages')
          .values(
            body.messages.map((m) => ({
              id: newMessageId(Date.parse(m.createdAt)),
              seq: top - body.total + m.index,
              conversation_id: body.conversationId,
              sender_id: userId,
              type: 'ENCRYPTED',
              content: m.content,
              reply_to_id: null,
              client_message_id: null,
              created_at: new Date(Date.parse(m.createdAt)).toISOString(),
              deleted_at: null,
              import_key: importKey,
              import_source_id: m.sourceId,
              import_job_id: jobId,
              imported_from: body.source,
            })),
          )
          .onConflict((oc) => oc.columns(['conversation_id', 'import_key', 'import_source_id']).doNothing())
          .returning('id')
          .execute();
        stored = inserted.length;
        await trx
          .updateTable('import_jobs')
          .set((eb) => ({
            done: eb('done', '+', stored),
            imported: eb('imported', '+', stored),
            // Every place of the export filled: the job is done (a later batch of it stores nothing new).
            status: Number(job.done) + stored >= body.total ? 'done' : 'running',
            updated_at: now(),
          }))
          .where('id', '=', jobId)
          .execute();
      });
      const fresh = await own(userId, jobId);
      runner.announce(toImportJob(fresh), userId);
      // Where each message of the batch is kept (stored now or by an earlier try): the importer's device keeps its
      // own plaintexts under these ids, as after a send, since it cannot decrypt its own ciphertext.
      const kept = await db
        .selectFrom('messages')
        .select(['id', 'created_at', 'import_source_id'])
        .where('conversation_id', '=', body.conversationId)
        .where('import_key', '=', importKey)
        .where(
          'import_source_id',
          'in',
          body.messages.map((m) => m.sourceId),
        )
        .execute();
      const bySource = new Map(kept.map((k) => [k.import_source_id, k]));
      const messages = body.messages.flatMap((m) => {
        const k = bySource.get(m.sourceId);
        return k
          ? [{ clientMessageId: m.clientMessageId, id: k.id, createdAt: new Date(k.created_at).toISOString() }]
          : [];
      });
      return { stored, skipped: body.messages.length - stored, jobId, messages };
    });

    // Cancelled is cancelled for good: what the import stored so far is removed (and a group it made for itself).
    contractRoute(app, 'importCancel', async ({ userId, params }) => {
      const row = await own(userId, params.id);
      const r = await db
        .updateTable('import_jobs')
        .set({ status: 'cancelled', claimed_at: null, updated_at: now() })
        .where('id', '=', row.id)
        .where('status', 'in', ['uploading', 'analysing', 'mapping', 'running'])
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw conflict(ALREADY_ENDED);
      await runner.removeExport(row.id);
      await runner.removeStored(row.id);
      const conversationId = row.conversation_id;
      if (row.new_group && conversationId) {
        const members = [...(await memberIds(db, conversationId))];
        await db.deleteFrom('messages').where('conversation_id', '=', conversationId).execute();
        await db.deleteFrom('conversations').where('id', '=', conversationId).execute();
        lists.changed(members, conversationId);
        realtime.toUsers(members, 'conversation:removed', { conversationId });
      } else if (conversationId) {
        lists.changed(await memberIds(db, conversationId), conversationId);
      }
      const job: ImportJob = toImportJob(await own(userId, row.id));
      runner.announce(job, userId, true);
      return { job };
    });
  },
  {
    name: 'imports-routes',
    encapsulate: true,
    decorators: { fastify: ['blocks', 'clock', 'config', 'db', 'lists', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'blocks'],
  },
);
