// The conversation list cache (list-cache.ts) of this server process: told by other processes what they
// changed (over the realtime peer channel) and by presence whose lists show someone coming or going.
import fp from 'fastify-plugin';
import { type ConversationListCache, createListCache, DEFAULT_LIST_CACHE } from './list-cache';

declare module 'fastify' {
  interface FastifyInstance {
    lists: ConversationListCache;
  }
}

export const listsPlugin = fp(
  async (app) => {
    const { peers } = app.realtime;
    const lists = createListCache({
      ...DEFAULT_LIST_CACHE,
      maxEntries: app.config.conversationListCache,
      // A change inside one conversation travels as { userIds, conversationId }; any other as the ids alone.
      publish: peers
        ? (userIds, conversationId) =>
            peers.emit('lists:changed', conversationId === undefined ? userIds : { userIds, conversationId })
        : undefined,
    });
    peers?.on('lists:changed', (notice) => {
      if (Array.isArray(notice)) lists.changedElsewhere(notice as string[]);
      else if (notice && typeof notice === 'object') {
        const { userIds, conversationId } = notice as { userIds?: unknown; conversationId?: unknown };
        lists.changedElsewhere(userIds as string[], conversationId as string);
      }
    });
    peers?.onResubscribed(() => lists.clear());
    app.realtime.onPresenceChanged((userIds) => (userIds ? lists.changed(userIds) : lists.clear()));
    app.decorate('lists', lists);
  },
  { name: 'lists', decorators: { fastify: ['config', 'realtime'] }, dependencies: ['realtime'] },
);
