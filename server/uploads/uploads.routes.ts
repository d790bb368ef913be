// POST /api/upload (multipart, field `file`) and GET /uploads/<key>. The upload is streamed to storage
// under a size limit; its type is sniffed from the bytes (the client's name and type are ignored);
// images are re-encoded without metadata (images.ts) and get their width and height. Only raster images and
// audio-only containers (audio.ts) are ever served inline; audio answers Range requests (206), which the
// browser's player needs to seek. The multipart parser is this plugin's own: every other route refuses multipart bodies (415).
import { randomUUID } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import { fileTypeFromBuffer } from 'file-type';
import { uploadRoute } from '../../src/contract/api';
import type { Attachment } from '../../src/contract/entities';
import { fileTooLargeText } from '../../src/contract/limits';
import { badRequest, HttpError, notFound } from '../http/errors';
import { audioType, parseRange } from './audio';
import { cleanFileName, contentDisposition, isStorageKey, newStorageKey } from './file-names';
import { cleanImage } from './images';
import type { UploadStorage } from './storage';

/** Formats browsers render as plain pixels; everything else (SVG and HTML included) is a download. */
const RASTER_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const SNIFF_BYTES = 4100;

/** Passes bytes through, keeping the first few for type sniffing and counting the rest. */
function sniffer() {
  const chunks: Buffer[] = [];
  let kept = 0;
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (kept < SNIFF_BYTES) {
        chunks.push(chunk.subarray(0, SNIFF_BYTES - kept));
        kept += Math.min(chunk.length, SNIFF_BYTES - kept);
      }
      done(null, chunk);
    },
  });
  return { stream, head: () => Buffer.concat(chunks), size: () => size };
}

/**
 * A multipart body the parser cannot read (no boundary, cut short, broken part headers) is the client's
 * mistake. Busboy reports those as plain errors; disk faults carry a syscall and stay 500s.
 */
function malformedMultipart(err: unknown): boolean {
  if (err instanceof HttpError || !(err instanceof Error)) return false;
  const e = err as Error & { code?: string; syscall?: string; statusCode?: number };
  return !e.syscall && !e.code && !e.statusCode;
}

/** POST /api/upload and GET /uploads/<key>, with files kept in `storage`. */
export const uploadsRoutes = fp<{ storage: UploadStorage }>(
  async (app, { storage }) => {
    const { config, db, authenticate } = app;
    const limit = config.uploadLimitBytes;
    const tooLarge = () => new HttpError(413, fileTooLargeText(limit));
    await app.register(multipart, { limits: { fileSize: limit, files: 1, fields: 10, parts: 11, fieldSize: 1024 } });

    app.post(`/api${uploadRoute.path}`, {
      onRequest: async (req) => {
        req.userId = await authenticate(req);
        // Refuse an oversized body before reading it (multipart adds a little framing around the file).
        const length = Number(req.headers['content-length']);
        if (Number.isFinite(length) && length > limit + 64 * 1024) throw tooLarge();
      },
      handler: async (req, reply) => {
        const userId = req.userId as string;
        let stored: { key: string; filename: string; sniff: ReturnType<typeof sniffer> } | null = null;
        try {
          // Exactly one file, in the field `file`; a second one (files limit) or a file elsewhere is a 400.
          for await (const part of req.parts()) {
            if (part.type !== 'file') continue;
            if (part.fieldname !== uploadRoute.field) throw badRequest('Файл ожидается в поле file');
            const sniff = sniffer();
            const key = newStorageKey();
            try {
              // pipeline (not pipe) so the size-limit error reaches storage and the partial file is removed.
              await storage.write(
                key,
                pipeline(part.file, sniff.stream, () => {}),
              );
            } catch (err) {
              if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || part.file.truncated) throw tooLarge();
              throw err;
            }
            stored = { key, filename: part.filename, sniff };
            if (part.file.truncated) throw tooLarge();
          }
        } catch (err) {
          if (stored) await storage.remove(stored.key);
          if (malformedMultipart(err)) throw badRequest('Некорректное тело multipart/form-data');
          throw err;
        }
        if (!stored) throw badRequest('Прикрепите файл в поле file');
        let { key } = stored;
        const { sniff } = stored;
        if (sniff.size() === 0) {
          await storage.remove(key);
          throw badRequest('Файл пустой');
        }

        const head = sniff.head();
        const detected = await fileTypeFromBuffer(head);
        const audio = audioType(detected?.mime, head);
        let kind: 'IMAGE' | 'FILE' | 'AUDIO' =
          detected && RASTER_IMAGES.has(detected.mime) ? 'IMAGE' : audio ? 'AUDIO' : 'FILE';
        let width: number | null = null;
        let height: number | null = null;
        let size = sniff.size();
        if (detected && kind === 'IMAGE') {
          let clean: Awaited<ReturnType<typeof cleanImage>>;
          try {
            clean = await cleanImage(storage, key, detected.mime);
          } catch (err) {
            await storage.remove(key);
            throw err;
          }
          // A valid signature over broken pixels: keep it, but only as a download.
          if (!clean) kind = 'FILE';
          else ({ key, size, width, height } = clean);
        }

        const url = `/uploads/${key}`;
        const name = cleanFileName(stored.filename);
        await db
          .insertInto('uploads')
          .values({
            id: randomUUID(),
            owner_id: userId,
            storage_key: key,
            url,
            original_name: name,
            mime: audio ?? detected?.mime ?? 'application/octet-stream',
            size,
            kind,
            width,
            height,
            created_at: new Date().toISOString(),
          })
          .execute();
        const attachment: Attachment = { url, type: kind, name, size, width, height };
        reply.status(201);
        return uploadRoute.response.parse({ url, attachment });
      },
    });

    // Capability URLs: the 128-bit random name is the secret (an <img> cannot send a bearer token).
    app.get('/uploads/:key', async (req, reply) => {
      const { key } = req.params as { key: string };
      if (!isStorageKey(key)) throw notFound('Файл не найден');
      const row = await db.selectFrom('uploads').selectAll().where('storage_key', '=', key).executeTakeFirst();
      // A secret chat's ciphertext is its members' alone, behind the bearer token (server/secret/secret-uploads.ts).
      if (!row || row.kind === 'SECRET') throw notFound('Файл не найден');
      const isAudio = row.kind === 'AUDIO';
      const size = Number(row.size);
      const range = isAudio ? parseRange(req.headers.range, size) : null;
      if (range === 'unsatisfiable') {
        reply.header('Content-Range', `bytes */${size}`);
        throw new HttpError(416, 'Запрошенный диапазон вне файла');
      }
      const body = await storage.read(key, range ?? undefined);
      if (!body) throw notFound('Файл не найден');
      const inline = (row.kind === 'IMAGE' && RASTER_IMAGES.has(row.mime)) || isAudio;
      if (isAudio) reply.header('Accept-Ranges', 'bytes');
      if (range) reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      reply
        .header('Content-Type', inline ? row.mime : 'application/octet-stream')
        .header('Content-Length', String(range ? range.end - range.start + 1 : size))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', row.original_name))
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'private, max-age=31536000, immutable');
      return reply.send(body);
    });
  },
  {
    name: 'uploads',
    encapsulate: true,
    decorators: { fastify: ['config', 'db', 'authenticate'] },
    dependencies: ['base', 'authentication'],
  },
);
