// The whole product started as `npm start` starts it: the certificate first when the server holds one (server/tls),
// then the app on PORT, the embedded media server (its signalling also under /sfu of the app's port, so an https
// page reaches it as wss://<same host>/sfu), and the addresses people can open, said plainly.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import pino from 'pino';
import { createServer, type Server, type ServerOptions } from './app';
import type { Clock } from './clock';
import type { Config } from './config';
import { defaultHostAddresses } from './sfu/host-addresses';
import { type Sfu, startSfu } from './sfu/index';
import { startTls, type Tls } from './tls/index';

export interface Served {
  server: Server;
  sfu: Sfu | null;
  tls: Tls | null;
  /** The port the app listens on (PORT; a test's 0 becomes the real one). */
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions extends Pick<ServerOptions, 'logStream'> {
  clock?: Clock;
  /** How often TLS_CERT/TLS_KEY are looked at for changes (ms). */
  tlsWatchIntervalMs?: number;
  /** The embedded media server's own port (SFU_PORT unless a test takes any free one). */
  sfuPort?: number;
}

const SFU_PREFIX = '/sfu/';

export async function serve(config: Config, options: ServeOptions = {}): Promise<Served> {
  const log = pino(
    { level: config.logLevel === 'silent' ? 'silent' : config.logLevel },
    options.logStream ?? pino.destination(1),
  ).child({ module: 'tls' });
  const tls = await startTls(config, {
    log: { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) },
    clock: options.clock,
    watchIntervalMs: options.tlsWatchIntervalMs,
  });
  let server: Server;
  try {
    server = await createServer(config, {
      clock: options.clock,
      logStream: options.logStream,
      ...(tls ? { https: tls.current() } : {}),
    });
  } catch (err) {
    await tls?.close();
    throw err;
  }
  if (tls) {
    const https = server.app.server as unknown as { setSecureContext(o: { key: string; cert: string }): void };
    tls.onChange((pair) => https.setSecureContext(pair));
  }
  await server.app.listen({ port: config.port, host: config.host });
  const port = (server.app.server.address() as { port: number }).port;

  // The embedded media server, unless an external LiveKit is configured; it checks tokens with the same key
  // and secret the token route signs with.
  let sfu: Sfu | null = null;
  if (!config.livekit.url) {
    sfu = await startSfu({
      port: options.sfuPort ?? config.sfu.port,
      host: config.host,
      apiKey: server.ctx.secrets.livekitApiKey,
      apiSecret: server.ctx.secrets.livekitApiSecret,
      hostCandidates: config.sfu.hostCandidates,
      udpPortRange: config.sfu.udpPortRange,
      logger: server.app.log.child({ module: 'sfu' }),
    });
    // Someone removed from a conversation leaves its call at once.
    server.app.mediaRooms.attach(sfu);
    const signal = sfu.signal;
    // socket.io answers its own path and leaves other upgrades alone once bytes were written to them.
    server.app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!req.url?.startsWith(SFU_PREFIX)) return;
      req.url = req.url.slice(SFU_PREFIX.length - 1);
      signal.handleUpgrade(req, socket, head);
    });
    server.app.mediaGateway.attach((req: IncomingMessage, res: ServerResponse) => {
      req.url = (req.url ?? '/').slice(SFU_PREFIX.length - 1);
      signal.handleRequest(req, res);
    });
  }
  announce(config, port, sfu, server, tls);

  return {
    server,
    sfu,
    tls,
    port,
    close: async () => {
      await sfu?.close();
      await tls?.close();
      await server.close();
    },
  };
}

/** The addresses that work, and for plain HTTP on a LAN the one line on why calls will not work there. */
function announce(config: Config, port: number, sfu: Sfu | null, server: Server, tls: Tls | null) {
  const log = server.app.log;
  const where = `данные в ${config.dataDir}, ${server.ctx.dialect}`;
  if (tls) {
    const origin = config.publicUrl ?? `https://localhost${port === 443 ? '' : `:${port}`}`;
    log.info(`Беседа на ${origin} (${where}); звонки и голосовые сообщения работают`);
    const httpPort = tls.httpPort();
    if (httpPort !== null) log.info(`http://…:${httpPort} переадресует на https://`);
  } else {
    log.info(`Беседа на http://localhost:${port} (${where}); звонки и голосовые сообщения работают на этом компьютере`);
    const lan = config.host === '127.0.0.1' || config.host === 'localhost' ? [] : defaultHostAddresses();
    const others = lan.filter((a) => a !== '127.0.0.1');
    if (others.length > 0) {
      const addresses = others.map((a) => `http://${a}:${port}`).join(', ');
      log.warn(
        `С других устройств: ${addresses} — там звонки, голосовые сообщения и уведомления не работают: браузер даёт микрофон и камеру только по https. Задайте PUBLIC_URL=https://ваш-домен (README, «Свой сервер в интернете»)`,
      );
    }
  }
  if (sfu) log.info(`Медиасервер звонков (протокол LiveKit) на порту ${sfu.port}${tls ? ' и на https://…/sfu' : ''}`);
}
