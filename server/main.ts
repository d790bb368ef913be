// `npm start`: the whole product in one process on embedded defaults.
import { createServer } from './app';
import { loadConfig } from './config';
import { type Sfu, startSfu } from './sfu/index';

const config = loadConfig();
const server = await createServer(config);
await server.app.listen({ port: config.port, host: config.host });
server.app.log.info(`Messenger on http://localhost:${config.port} (data in ${config.dataDir}, ${server.ctx.dialect})`);

// The embedded media server, unless an external LiveKit is configured; it checks tokens with the same key
// and secret the token route signs with.
let sfu: Sfu | null = null;
if (!config.livekit.url) {
  sfu = await startSfu({
    port: config.sfu.port,
    host: config.host,
    apiKey: server.ctx.secrets.livekitApiKey,
    apiSecret: server.ctx.secrets.livekitApiSecret,
    hostCandidates: config.sfu.hostCandidates,
    udpPortRange: config.sfu.udpPortRange,
    logger: server.app.log.child({ module: 'sfu' }),
  });
  server.app.log.info(`Embedded media server (LiveKit protocol) on ws://localhost:${sfu.port}`);
  // Someone removed from a conversation leaves its call at once.
  server.app.mediaRooms.attach(sfu);
}
// werift can reject promises nobody awaits when a peer vanishes mid-handshake, and socket.io's Redis adapter
// publishes without catching while Redis is down: one broken call or a Redis outage must not take every
// conversation down with the process (readiness reports Redis meanwhile).
process.on('unhandledRejection', (err) => server.app.log.error({ err }, 'unhandled rejection'));

const stop = async () => {
  await sfu?.close();
  await server.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
