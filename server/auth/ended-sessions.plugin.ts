// Ended sign-ins across server processes: an ending here is told to the others over the realtime peer channel
// (the Redis adapter's), and a process that may have missed notices while Redis reconnected reads them again.
import fp from 'fastify-plugin';

export const endedSessionsSync = fp(
  async (app) => {
    const { endedSessions, realtime } = app;
    const { peers } = realtime;
    if (!peers) return;
    endedSessions.publish = (sessionId) => peers.emit('sessions:ended', sessionId);
    peers.on('sessions:ended', (sessionId) => endedSessions.endedElsewhere(sessionId as string));
    peers.onResubscribed(() => {
      endedSessions.load().catch((err) => app.log.warn({ err }, 'ended sign-ins not reloaded'));
    });
  },
  {
    name: 'ended-sessions-sync',
    decorators: { fastify: ['endedSessions', 'realtime'] },
    dependencies: ['authentication', 'realtime'],
  },
);
