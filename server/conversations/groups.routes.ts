// Managing a group (group-members.ts): members, roles, leaving, title and picture; one's own chat settings
// (chat-settings.ts). The other server processes
// hear which conversation's members changed, so their membership caches forget it as well.
import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { contractRoute } from '../http/contract-route';
import { HttpError } from '../http/errors';
import { createChatSettings } from './chat-settings';
import { createGroupInvites } from './group-invites';
import { createGroups } from './group-members';

export const JOIN_ATTEMPTS_PER_MINUTE = 20;

import { forgetMembers } from './membership';

export const groupsRoutes = fp(
  async (app) => {
    const { db, lists, mediaRooms, realtime } = app;
    // This plugin's own limiter (no global limit): its hooks run on the join route only.
    await app.register(rateLimit, { global: false });
    const { peers } = realtime;
    peers?.on('members:changed', (conversationId) => {
      if (typeof conversationId === 'string') forgetMembers(db, conversationId);
    });
    const groups = createGroups({
      db,
      lists,
      realtime,
      mediaRooms,
      membersChanged: peers ? (conversationId) => peers.emit('members:changed', conversationId) : null,
    });

    const settings = createChatSettings({
      db,
      lists,
      realtime,
      groups,
      membersChanged: peers ? (conversationId) => peers.emit('members:changed', conversationId) : null,
    });
    const invites = createGroupInvites(db);
    // At most 20 join attempts a minute per person: a code cannot be guessed, and a link cannot be hammered.
    const joins = app.createRateLimit({
      max: JOIN_ATTEMPTS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (req) => `invite-join:${req.userId ?? req.ip}`,
    });
    const limitJoins = async (req: FastifyRequest, reply: FastifyReply) => {
      const r = await joins(req);
      if (r.isAllowed || !r.isExceeded) return;
      reply.header('retry-after', String(r.ttlInSeconds));
      throw new HttpError(429, `Слишком много попыток вступить. Повторите через ${r.ttlInSeconds} с.`);
    };
    contractRoute(app, 'createInvite', ({ userId, body }) => invites.create(userId, body));
    contractRoute(app, 'groupInvites', ({ userId, params }) => invites.list(userId, params.id));
    contractRoute(app, 'revokeInvite', ({ userId, body }) => invites.revoke(userId, body.code));
    contractRoute(app, 'invitePreview', ({ userId, params }) => invites.preview(userId, params.code));
    contractRoute(app, 'joinByInvite', ({ userId, params }) => groups.joinByInvite(userId, params.code), {
      preHandler: limitJoins,
    });
    contractRoute(app, 'joinOpenGroup', ({ userId, params }) => groups.joinOpen(userId, params.id), {
      preHandler: limitJoins,
    });

    contractRoute(app, 'chatSettings', ({ userId, params, body }) => settings.update(userId, params.id, body));
    contractRoute(app, 'clearHistory', ({ userId, body }) => settings.clear(userId, body.conversationId));
    contractRoute(app, 'hideConversation', ({ userId, body }) => settings.hide(userId, body.conversationId));

    contractRoute(app, 'addMembers', ({ userId, body }) =>
      groups.addMembers(userId, body.conversationId, body.userIds),
    );
    contractRoute(app, 'removeMember', ({ userId, body }) =>
      groups.removeMember(userId, body.conversationId, body.userId),
    );
    contractRoute(app, 'memberRole', ({ userId, body }) =>
      groups.setRole(userId, body.conversationId, body.userId, body.role),
    );
    contractRoute(app, 'leaveConversation', ({ userId, body }) => groups.leave(userId, body.conversationId));
    contractRoute(app, 'updateConversation', ({ userId, params, body }) => groups.update(userId, params.id, body));
    contractRoute(app, 'groupHistory', ({ userId, body }) =>
      groups.setHistory(userId, body.conversationId, body.visible),
    );
  },
  {
    name: 'groups-routes',
    encapsulate: true,
    decorators: { fastify: ['db', 'lists', 'mediaRooms', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'media-rooms'],
  },
);
