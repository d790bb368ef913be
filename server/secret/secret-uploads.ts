// A secret chat's encrypted attachments (docs/secret-chats.md, "Files and voice messages"). The browser seals each
// file with a fresh AES-256-GCM key and uploads the ciphertext here: the server checks who sends it and how large it
// is, and nothing else — no sniffing, no re-encoding, no thumbnails (it could not: the bytes are noise to it). They
// are stored under a random name as application/octet-stream, tied to the chat, and given back to its members only,
// with the bearer token (unlike ordinary uploads, whose random name is the capability).
import { randomUUID } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import fp from 'fastify-plugin';
import { secretUploadRoute } from '../../src/contract/api';
import { fileTooLargeText } from '../../src/contract/limits';
import { secretDownloadEndpoint } from '../../src/contract/routes';
import { SECRET_UPLOAD_OVERHEAD } from '../../src/contract/secret';
import { memberIds, membersFor } from '../conversations/membership';
import { isSecret, NOT_SECRET } from '../conversations/secret-flag';
import { badRequest, HttpError, notFound, zodMessage } from '../http/errors';
import { isStorageKey, newStorageKey } from '../uploads/file-names';
import type { UploadStorage } from '../uploads/storage';

const OCTET_STREAM = 'application/octet-stream';
const NOT_FOUND = 'Файл не найден';

/** Passes bytes through, failing with `tooLarge` once more than `max` have gone by. */
function counter(max: number, tooLarge: () => Error) {
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > max) done(tooLarge());
      else done(null, chunk);
    },
  });
  return { stream, size: () => size };
}

export const secretUploadsRoutes = fp<{ storage: UploadStorage }>(
  async (app, { storage }) => {
    const { config, db, authenticate } = app;
    // The ordinary file limit, plus the GCM tag the encryption adds.
    const max = config.uploadLimitBytes + SECRET_UPLOAD_OVERHEAD;
    const tooLarge = () => new HttpError(413, fileTooLargeText(config.uploadLimitBytes));

    // The body is read as a stream by the route itself (under `max`), never buffered whole.
    app.addContentTypeParser(OCTET_STREAM, (_req, payload, done) => done(null, payload));

    app.post(`/api${secretUploadRoute.path}`, {
      onRequest: async (req) => {
        req.userId = await authenticate(req);
        const length = Number(req.headers['content-length']);
        if (Number.isFinite(length) && length > max) throw tooLarge();
      },
      // A refusal sent before the body was read to its end closes the connection: a socket with the rest of a body
      // still coming is never idle, so it would otherwise hold the server's close (and the client's next request).
      onSend: async (req, reply, payload) => {
        const body = req.body as { readableEnded?: boolean } | undefined;
        if (!body?.readableEnded) reply.header('connection', 'close');
        return payload;
      },
      handler: async (req, reply) => {
        const userId = req.userId as string;
        const query = secretUploadRoute.query.safeParse(req.query ?? {});
        if (!query.success) throw badRequest(zodMessage(query.error));
        const { conversationId } = query.data;
        await membersFor(db, conversationId, userId);
        if (!(await isSecret(db, conversationId))) throw badRequest(NOT_SECRET);
        const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
        if (type !== OCTET_STREAM)
          throw new HttpError(415, 'Зашифрованный файл ожидается как application/octet-stream');

        const count = counter(max, tooLarge);
        const key = newStorageKey();
        try {
          await storage.write(
            key,
            pipeline(req.body as NodeJS.ReadableStream, count.stream, () => {}),
          );
        } catch (err) {
          // Closing stops the rest of an oversized body from being read only to be thrown away.
          if (err instanceof HttpError && err.statusCode === 413) reply.header('connection', 'close');
          throw err;
        }
        const size = count.size();
        // The smallest ciphertext is the tag alone (an empty file): anything shorter is not one.
        if (size <= SECRET_UPLOAD_OVERHEAD) {
          await storage.remove(key);
          throw badRequest('Файл пустой');
        }
        const url = `/api/secret/uploads/${key}`;
        try {
          await db
            .insertInto('uploads')
            .values({
              id: randomUUID(),
              owner_id: userId,
              storage_key: key,
              url,
              original_name: key,
              mime: OCTET_STREAM,
              size,
              kind: 'SECRET',
              width: null,
              height: null,
              created_at: new Date().toISOString(),
              conversation_id: conversationId,
            })
            .execute();
        } catch (err) {
          await storage.remove(key);
          throw err;
        }
        reply.status(201);
        return secretUploadRoute.response.parse({ url, size });
      },
    });

    app.get(`/api${secretDownloadEndpoint.path}`, {
      onRequest: async (req) => {
        req.userId = await authenticate(req);
      },
      handler: async (req, reply) => {
        const userId = req.userId as string;
        const { key } = req.params as { key: string };
        if (!isStorageKey(key)) throw notFound(NOT_FOUND);
        const row = await db
          .selectFrom('uploads')
          .select(['size', 'conversation_id'])
          .where('storage_key', '=', key)
          .where('kind', '=', 'SECRET')
          .executeTakeFirst();
        // Someone outside the chat (or a chat that is gone) learns nothing, not even that the file exists.
        if (!row?.conversation_id || !(await memberIds(db, row.conversation_id)).includes(userId))
          throw notFound(NOT_FOUND);
        const body = await storage.read(key);
        if (!body) throw notFound(NOT_FOUND);
        reply
          .header('Content-Type', OCTET_STREAM)
          .header('Content-Length', String(Number(row.size)))
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Disposition', `attachment; filename="${key}"`)
          .header('Content-Security-Policy', "default-src 'none'; sandbox")
          // Who may read it changes with the membership: nothing keeps a copy.
          .header('Cache-Control', 'private, no-store');
        return reply.send(body);
      },
    });
  },
  {
    name: 'secret-uploads',
    encapsulate: true,
    decorators: { fastify: ['config', 'db', 'authenticate'] },
    dependencies: ['base', 'authentication'],
  },
);
