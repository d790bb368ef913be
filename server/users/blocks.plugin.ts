// The blocks of this server process (blocks.ts): read at start, kept in step with the other processes over the
// realtime peer channel, read again when that channel reconnects.
import fp from 'fastify-plugin';
import { type Blocks, createBlocks } from './blocks';

declare module 'fastify' {
  interface FastifyInstance {
    blocks: Blocks;
  }
}

export const blocksPlugin = fp(
  async (app) => {
    const blocks = createBlocks(app.db);
    await blocks.load();
    const { peers } = app.realtime;
    if (peers) {
      blocks.publish = (blocker, blocked, on) => peers.emit('blocks:changed', blocker, blocked, on);
      peers.on('blocks:changed', (blocker, blocked, on) =>
        blocks.changedElsewhere(String(blocker), String(blocked), on === true),
      );
      peers.onResubscribed(() => {
        blocks.load().catch((err) => app.log.warn({ err }, 'blocks not reloaded'));
      });
    }
    app.decorate('blocks', blocks);
  },
  { name: 'blocks', decorators: { fastify: ['db', 'realtime'] }, dependencies: ['base', 'realtime'] },
);
