// POST /api/livekit/token: a LiveKit access token for a room (GET /api/livekit/url: the address alone). `conv-<id>` rooms are conversation calls
// (members only); any other name is an open room (the /calls page) for any signed-in user. The identity
// is always the server's user id.
import fp from 'fastify-plugin';
import { AccessToken } from 'livekit-server-sdk';
import type { Config } from '../config';
import { isMember } from '../conversations/membership';
import { contractRoute } from '../http/contract-route';
import { badRequest, forbidden, notFound } from '../http/errors';

const CONVERSATION_ROOM = /^conv-(.+)$/;
const METADATA_MAX = 1024;
/**
 * Short, as LiveKit's own default: a leaked token is soon useless. A call lasts longer than this: the media
 * server hands connected participants fresh tokens (server/sfu, SignalResponse.refreshToken), which the
 * client uses when it reconnects.
 */
export const LIVEKIT_TOKEN_TTL_SEC = 10 * 60;

/**
 * LIVEKIT_URL when set; else SFU_PUBLIC_URL (the embedded media server behind a TLS proxy); else the
 * embedded media server's own port on the host name the client used to reach us.
 */
export function livekitUrl(config: Config, req: { hostname: string; protocol: string; host?: string }): string {
  if (config.livekit.url) return config.livekit.url;
  if (config.sfu.publicUrl) return config.sfu.publicUrl;
  // Holding the certificate itself, the app serves the media server's signalling on its own HTTPS port under
  // /sfu (serve.ts): one name, one certificate, no second TLS port to open.
  if (config.tls.mode !== 'off' && req.host) return `wss://${req.host}/sfu`;
  const scheme = req.protocol === 'https' ? 'wss' : 'ws';
  const host = req.hostname.includes(':') && !req.hostname.startsWith('[') ? `[${req.hostname}]` : req.hostname;
  return `${scheme}://${host}:${config.sfu.port}`;
}

/** The LiveKit token route. */
export const livekitRoutes = fp(
  async (app) => {
    const { config, db, secrets } = app;
    contractRoute(app, 'livekitToken', async ({ userId, body, req }) => {
      const room = body.room.trim();
      const conversationId = CONVERSATION_ROOM.exec(room)?.[1];
      if (conversationId && !(await isMember(db, conversationId, userId))) {
        throw forbidden('Звонок доступен только участникам беседы');
      }
      const user = await db
        .selectFrom('users')
        .select(['id', 'display_name'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) throw notFound('Пользователь не найден');
      // The client's metadata is kept, but userId in it is always the real one.
      const metadata = JSON.stringify({ ...(body.participantMetadata ?? {}), userId });
      if (metadata.length > METADATA_MAX) throw badRequest(`participantMetadata — не больше ${METADATA_MAX} байт`);
      const token = new AccessToken(secrets.livekitApiKey, secrets.livekitApiSecret, {
        identity: userId,
        name: body.participantName?.trim() || user.display_name,
        metadata,
        ttl: LIVEKIT_TOKEN_TTL_SEC,
      });
      token.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
      return { token: await token.toJwt(), url: livekitUrl(config, req) };
    });
    // The address the calls page shows before any token names it: the same one the tokens carry.
    contractRoute(app, 'livekitUrl', async ({ req }) => ({ url: livekitUrl(config, req) }));
  },
  {
    name: 'livekit-routes',
    encapsulate: true,
    decorators: { fastify: ['config', 'db', 'secrets', 'authenticate'] },
    dependencies: ['base', 'authentication'],
  },
);
