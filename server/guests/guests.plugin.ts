// Guest links to calls (docs/behaviour.md §10.40): the members' routes (make, list and revoke links, «Кто впускает
// гостей», who waits), the guest's public routes (the link's page, knocking, the media token, giving up), the members'
// decisions over their sockets and the guests' own socket namespace. A guest's media token is scoped to the one room,
// cannot publish data (no chat of the call), is short and never outlives the link or the call.
import fp from 'fastify-plugin';
import { AccessToken } from 'livekit-server-sdk';
import { guestIdentity } from '../../src/contract/guests';
import { readSettings } from '../admin/server-settings';
import { contractRoute } from '../http/contract-route';
import { LIVEKIT_TOKEN_TTL_SEC, livekitUrl } from '../livekit/token.routes';
import { createGuestLinks } from './guest-links';

export const guestsPlugin = fp(
  async (app) => {
    const { clock, config, db, mediaRooms, metrics, realtime, secrets } = app;
    const guests = createGuestLinks({
      db,
      clock,
      realtime,
      mediaRooms,
      enabled: async () => (await readSettings(db)).guestLinks,
      count: (event) => metrics.guests.inc({ event }),
      logError: (err, what) => app.log.error({ err }, `${what} failed`),
    });
    // The attached media server says who is in its rooms: a guest's admission ends with the call.
    const stopWatching = mediaRooms.onParticipants((room, identities) => guests.roomPeople(room, identities));
    app.addHook('onClose', async () => {
      stopWatching();
      guests.close();
    });

    contractRoute(app, 'createGuestLink', ({ userId, body }) => guests.create(userId, body));
    contractRoute(app, 'guestLinks', ({ userId, query }) => guests.list(userId, query.room));
    contractRoute(app, 'revokeGuestLink', ({ userId, body }) => guests.revoke(userId, body.code));
    contractRoute(app, 'guestAdmission', ({ userId, body }) =>
      guests.setAdmission(userId, body.conversationId, body.adminsOnly),
    );
    contractRoute(app, 'waitingGuests', ({ userId, query }) => guests.waiting(userId, query.room));

    contractRoute(app, 'guestLinkInfo', ({ params }) => guests.info(params.code));
    contractRoute(app, 'guestKnock', ({ params, body }) => guests.knock(params.code, body));
    contractRoute(app, 'guestLeave', ({ params, body }) => guests.leave(params.id, body.secret));
    contractRoute(app, 'guestToken', async ({ params, body, req }) => {
      const { knock, link } = await guests.admitted(params.id, body.secret);
      // Never past the link's end: a revoked or expired link is refused here, and the last token soon runs out.
      const ttl = Math.max(
        1,
        Math.min(LIVEKIT_TOKEN_TTL_SEC, Math.floor((Date.parse(link.expires_at) - clock.now()) / 1000)),
      );
      const token = new AccessToken(secrets.livekitApiKey, secrets.livekitApiSecret, {
        identity: guestIdentity(knock.id),
        name: knock.name,
        metadata: JSON.stringify({ guest: true }),
        ttl,
      });
      token.addGrant({
        room: link.room,
        roomJoin: true,
        canPublish: true,
        canSubscribe: true,
        canPublishData: false,
        canUpdateOwnMetadata: false,
      });
      return {
        token: await token.toJwt(),
        url: livekitUrl(config, req),
        room: link.room,
        expiresAt: new Date(clock.now() + ttl * 1000).toISOString(),
      };
    });

    realtime.onClientEvent('guest:admit', ({ knockId, sealed }, { userId }) =>
      guests.decide(userId, knockId, 'admit', sealed),
    );
    realtime.onClientEvent('guest:key', ({ knockId, sealed }, { userId }) => guests.relayKey(userId, knockId, sealed));
    realtime.onClientEvent('guest:deny', ({ knockId }, { userId }) => guests.decide(userId, knockId, 'deny'));
    realtime.onClientEvent('guest:remove', ({ knockId }, { userId }) => guests.decide(userId, knockId, 'remove'));

    realtime.guests.authorize((auth) => guests.authorizeSocket(auth));
    realtime.guests.onKeyRequest((knockId) => guests.requestKey(knockId));
    realtime.guests.onConnect((knockId) => {
      guests
        .stateOf(knockId)
        .then((state) => realtime.guests.toGuest(knockId, 'guest:state', { state }))
        .catch((err: unknown) => app.log.error({ err }, 'guest state failed'));
    });
  },
  {
    name: 'guests',
    encapsulate: true,
    decorators: {
      fastify: ['clock', 'config', 'db', 'mediaRooms', 'metrics', 'realtime', 'secrets', 'authenticate'],
    },
    dependencies: ['base', 'authentication', 'realtime', 'media-rooms', 'metrics'],
  },
);
