// Managing a group (group-members.ts): members, roles, leaving, title and picture; one's own chat settings
// (chat-settings.ts). The other server processes
// hear which conversation's members changed, so their membership caches forget it as well.
import fp from 'fastify-plugin';
import { contractRoute } from '../http/contract-route';
import { createChatSettings } from './chat-settings';
import { createGroups } from './group-members';
import { forgetMembers } from './membership';

export const groupsRoutes = fp(
  async (app) => {
    const { db, lists, realtime } = app;
    const { peers } = realtime;
    peers?.on('members:changed', (conversationId) => {
      if (typeof conversationId === 'string') forgetMembers(db, conversationId);
    });
    const groups = createGroups({
      db,
      lists,
      realtime,
      membersChanged: peers ? (conversationId) => peers.emit('members:changed', conversationId) : null,
    });

    const settings = createChatSettings({
      db,
      lists,
      realtime,
      groups,
      membersChanged: peers ? (conversationId) => peers.emit('members:changed', conversationId) : null,
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
  },
  {
    name: 'groups-routes',
    encapsulate: true,
    decorators: { fastify: ['db', 'lists', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists'],
  },
);
