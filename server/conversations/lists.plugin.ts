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
      publish: peers ? (userIds) => peers.emit('lists:changed', userIds) : undefined,
    });
    peers?.on('lists:changed', (userIds) => lists.changedElsewhere(userIds as string[]));
    peers?.onResubscribed(() => lists.clear());
    app.realtime.onPresenceChanged((userIds) => (userIds ? lists.changed(userIds) : lists.clear()));
    app.decorate('lists', lists);
  },
  { name: 'lists', decorators: { fastify: ['config', 'realtime'] }, dependencies: ['realtime'] },
);
