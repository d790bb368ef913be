// POST /api/livekit/webhook: an external LiveKit's webhooks (LIVEKIT_URL; its `webhook.urls` names this address,
// docs/calls.md "Group calls"). The `Authorization` header is a JWT signed with the API secret carrying the SHA-256
// of the raw body (livekit-server-sdk's WebhookReceiver checks both), so the route reads the body as text.
// participant_joined, participant_left and room_finished go to media-rooms.ts's `heard`: group calls follow them,
// guests' admission hears who is in the room. Anything else (other kinds, rooms no call knows) is answered 200 and
// left alone. LiveKit sends an event again when the answer is not 2xx: an event id handled here once is not handled
// again, and each step is harmless when repeated (group-calls.ts).
import fp from 'fastify-plugin';
import { type WebhookEvent, WebhookReceiver } from 'livekit-server-sdk';
import { badRequest, notFound, unauthorized } from '../http/errors';
import type { MediaEvent, MediaRooms } from './media-rooms';

export const WEBHOOK_PATH = '/api/livekit/webhook';
export const WEBHOOK_UNSIGNED = 'Подпись вебхука LiveKit не подходит';
export const WEBHOOK_MALFORMED = 'Вебхук LiveKit не удалось разобрать';
export const WEBHOOK_NO_LIVEKIT = 'Внешний LiveKit не настроен';
const BODY_LIMIT = 256 * 1024;
/** Event ids remembered, so that a repeated delivery is answered without being handled again. */
const SEEN_MAX = 2000;

export interface WebhookDeps {
  receiver: Pick<WebhookReceiver, 'receive'>;
  heard: MediaRooms['heard'];
  now: () => number;
}

/** What a webhook says, for the kinds the app follows; null for any other kind. */
export function mediaEventOf(event: WebhookEvent, now: number): MediaEvent | null {
  const room = event.room?.name;
  const at = event.createdAt > 0n ? Number(event.createdAt) * 1000 : now;
  switch (event.event) {
    case 'participant_joined':
    case 'participant_left': {
      const p = event.participant;
      if (!room || !p?.identity || !p.sid) throw badRequest(WEBHOOK_MALFORMED);
      if (event.event === 'participant_left') return { kind: 'left', room, identity: p.identity, sid: p.sid };
      const joinedAt = p.joinedAtMs > 0n ? Number(p.joinedAtMs) : p.joinedAt > 0n ? Number(p.joinedAt) * 1000 : at;
      return { kind: 'joined', room, identity: p.identity, sid: p.sid, joinedAt };
    }
    case 'room_finished':
      if (!room) throw badRequest(WEBHOOK_MALFORMED);
      return { kind: 'finished', room, at };
    default:
      return null;
  }
}

/** Checks and reads one delivery; resolves once the app has followed it. */
export function webhookHandler({ receiver, heard, now }: WebhookDeps) {
  const seen = new Set<string>();
  return async (body: string, authorization: string | undefined): Promise<void> => {
    let event: WebhookEvent;
    try {
      event = await receiver.receive(body, authorization);
    } catch (err) {
      // The signature is checked before the body is read: a body that fails to parse was signed.
      if (err instanceof SyntaxError || (err instanceof Error && /from JSON/.test(err.message)))
        throw badRequest(WEBHOOK_MALFORMED);
      throw unauthorized(WEBHOOK_UNSIGNED);
    }
    if (event.id && seen.has(event.id)) return;
    const media = mediaEventOf(event, now());
    if (media) await heard(media);
    if (!event.id) return;
    seen.add(event.id);
    if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value as string);
  };
}

/** The webhook route: 404 without LIVEKIT_URL (the embedded media server tells the app in-process). */
export const livekitWebhookRoutes = fp(
  async (app) => {
    const { config, clock, mediaRooms, secrets } = app;
    const handle = webhookHandler({
      receiver: new WebhookReceiver(secrets.livekitApiKey, secrets.livekitApiSecret),
      heard: (event) => mediaRooms.heard(event),
      now: () => clock.now(),
    });
    // The raw body, whatever its type (LiveKit sends application/webhook+json): here only.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));
    app.post(WEBHOOK_PATH, async (req) => {
      if (!config.livekit.url) throw notFound(WEBHOOK_NO_LIVEKIT);
      const body = typeof req.body === 'string' ? req.body : '';
      const authorization = req.headers.authorization;
      await handle(body, authorization);
      return { ok: true as const };
    });
  },
  {
    name: 'livekit-webhook',
    encapsulate: true,
    decorators: { fastify: ['clock', 'config', 'mediaRooms', 'secrets'] },
    dependencies: ['base', 'media-rooms'],
  },
);
