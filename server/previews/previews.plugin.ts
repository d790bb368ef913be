// Link previews (docs/behaviour.md §10.30 Link previews): `app.previews.attach` gives a freshly sent message its
// card (at once from the cache, else `pending` and a `message:preview` to the members when it arrives),
// POST /api/messages/preview/remove is the sender's «Убрать предпросмотр», and GET /uploads/previews/<key> serves
// the server's own copy of a card's picture, a capability URL like any upload's.
import fp from 'fastify-plugin';
import type { LinkPreview, Message } from '../../src/contract/entities';
import { memberIds } from '../conversations/membership';
import { contractRoute } from '../http/contract-route';
import { forbidden, notFound } from '../http/errors';
import { MESSAGE_NOT_FOUND } from '../messages/delete-message';
import { isStorageKey } from '../uploads/file-names';
import type { UploadStorage } from '../uploads/storage';
import { createLinkPreviews, firstLink, previewsOf } from './link-previews';

export interface PreviewAttacher {
  /** The message with its card (or `pending`), when its text has an http(s) link; the fetch goes on after. */
  attach(message: Message): Promise<Message>;
}

declare module 'fastify' {
  interface FastifyInstance {
    previews: PreviewAttacher;
  }
}

export const REMOVE_PREVIEW_SENDER_ONLY = 'Убрать предпросмотр может только отправитель';
const IMAGE_NOT_FOUND = 'Изображение не найдено';

export const previewsPlugin = fp<{ storage: UploadStorage }>(
  async (app, { storage }) => {
    const { config, clock, db, realtime } = app;
    const settings = config.linkPreviews;
    const previews = createLinkPreviews({
      db,
      storage,
      settings,
      now: () => clock.now(),
      log: (reason, url) => app.log.info({ url, reason }, 'link preview not made'),
    });
    /** Fetches still running: a closing server waits for them (each ends by its deadline). */
    const background = new Set<Promise<void>>();

    /** Tells the current members of the conversation what the message's card is now. */
    async function announce(message: Message) {
      const [preview] = [...(await previewsOf(db, [message.id])).values()];
      if (!preview) return; // removed meanwhile
      realtime.toUsers(await memberIds(db, message.conversationId), 'message:preview', {
        conversationId: message.conversationId,
        messageId: message.id,
        preview,
      });
    }

    async function attach(message: Message): Promise<Message> {
      // Only the server's own plain messages: a secret chat's text is never seen by the server (ENCRYPTED).
      if (!settings.enabled || message.type !== 'TEXT') return message;
      const url = firstLink(message.content);
      if (!url) return message;
      await db.insertInto('message_previews').values({ message_id: message.id, url }).execute();
      const known = (await previewsOf(db, [message.id])).get(message.id) as LinkPreview;
      const cached = await db
        .selectFrom('link_previews')
        .select('fetched_at')
        .where('url', '=', url)
        .executeTakeFirst();
      const fresh = cached && clock.now() - Date.parse(cached.fetched_at) < 24 * 3600 * 1000;
      if (!fresh) {
        const job = previews
          .ensure(url)
          .then(() => announce(message))
          .catch((err) => app.log.warn({ err, url }, 'link preview failed'))
          .finally(() => background.delete(job));
        background.add(job);
        // A stale card is shown until the new one arrives; a first fetch shows «pending».
        return { ...message, preview: cached ? known : { ...known, status: 'pending' } };
      }
      return { ...message, preview: known };
    }

    app.decorate('previews', { attach } satisfies PreviewAttacher);
    app.addHook('onClose', async () => {
      previews.close();
      await Promise.allSettled([...background]);
    });

    await app.register(async (routes) => {
      contractRoute(routes, 'removePreview', async ({ userId, body }) => {
        const row = await db
          .selectFrom('messages')
          .select(['id', 'conversation_id', 'sender_id'])
          .where('id', '=', body.messageId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        // A non-member learns nothing about the message, not even that it exists.
        const members = row ? await memberIds(db, row.conversation_id) : [];
        if (!row || !members.includes(userId)) throw notFound(MESSAGE_NOT_FOUND);
        if (row.sender_id !== userId) throw forbidden(REMOVE_PREVIEW_SENDER_ONLY);
        const { numDeletedRows } = await db
          .deleteFrom('message_previews')
          .where('message_id', '=', row.id)
          .executeTakeFirst();
        if (numDeletedRows > 0n) {
          realtime.toUsers(members, 'message:preview', {
            conversationId: row.conversation_id,
            messageId: row.id,
            preview: null,
          });
        }
        return { ok: true as const };
      });

      // Capability URLs as for uploads (an <img> sends no bearer token): the 128-bit random key is the secret.
      routes.get('/uploads/previews/:key', async (req, reply) => {
        const { key } = req.params as { key: string };
        if (!isStorageKey(key)) throw notFound(IMAGE_NOT_FOUND);
        const known = await db
          .selectFrom('link_previews')
          .select('url')
          .where('image_key', '=', key)
          .executeTakeFirst();
        const body = known ? await storage.read(key) : null;
        if (!body) throw notFound(IMAGE_NOT_FOUND);
        return reply
          .header('Content-Type', 'image/webp')
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Disposition', 'inline; filename="preview.webp"')
          .header('Content-Security-Policy', "default-src 'none'; sandbox")
          .header('Cache-Control', 'private, max-age=31536000, immutable')
          .send(body);
      });
    });
  },
  {
    name: 'previews',
    decorators: { fastify: ['config', 'clock', 'db', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime'],
  },
);
