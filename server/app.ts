// Builds the whole HTTP server for a configuration: database, secrets, routes, realtime gateway.
// main.ts listens on it; tests build one per suite on a free port with a temporary data directory.
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { createAccessTokens } from './auth/access-tokens';
import { authRoutes } from './auth/auth.routes';
import type { Config } from './config';
import { contactsRoutes } from './contacts/contacts.routes';
import type { AppContext } from './context';
import { conversationsRoutes } from './conversations/conversations.routes';
import { createListCache, DEFAULT_LIST_CACHE } from './conversations/list-cache';
import { openDatabase } from './db/database';
import { serveClient } from './http/client-static';
import { type Authenticate, bearerToken, contractRoute } from './http/contract-route';
import { installErrorHandler, unauthorized } from './http/errors';
import { requestLogFor } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { livekitRoutes } from './livekit/token.routes';
import { messagesRoutes } from './messages/messages.routes';
import { receiptsRoutes } from './messages/receipts.routes';
import { createGateway } from './realtime/gateway';
import { loadSecrets } from './secrets';
import { localDiskStorage } from './uploads/storage';
import { uploadsRoutes } from './uploads/uploads.routes';
import { statusRoutes } from './users/status.routes';

export const JSON_BODY_LIMIT_BYTES = 100 * 1024;

export interface Server {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

export async function createServer(config: Config): Promise<Server> {
  const secrets = loadSecrets(config);
  const { db, dialect } = await openDatabase(config);
  const accessTokens = createAccessTokens(secrets.jwtSecret, config.accessTokenTtlSec);
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    logController: requestLogFor(config.logLevel),
    // API bodies are small (a 4,000-character message is ~16 KB as JSON): anything larger is refused with 413
    // before it is read or parsed. Uploads are multipart, streamed under their own limit (UPLOAD_LIMIT_MB).
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    trustProxy: true,
  });
  // socket.io shares Fastify's HTTP server (one port); the hub it provides is what routes emit through.
  const gateway = createGateway(app.server, config);
  const lists = createListCache({
    ...DEFAULT_LIST_CACHE,
    maxEntries: config.conversationListCache,
    publish: gateway.peers ? (userIds) => gateway.peers?.emit('lists:changed', userIds) : undefined,
  });
  gateway.peers?.on('lists:changed', (userIds) => lists.changedElsewhere(userIds as string[]));
  gateway.peers?.onResubscribed(() => lists.clear());
  const ctx: AppContext = {
    config,
    db,
    dialect,
    secrets,
    accessTokens,
    realtime: gateway.hub,
    sessions: gateway.sessions,
    lists,
  };
  installErrorHandler(app);
  // The API speaks JSON (and multipart for uploads); a text/plain body is a client mistake, answered 415.
  app.removeContentTypeParser('text/plain');
  await app.register(rateLimit, { global: false });

  const authenticate: Authenticate = async (req) => {
    const userId = await accessTokens.verify(bearerToken(req));
    if (!userId) throw unauthorized();
    return userId;
  };

  try {
    securityHeaders(app, config);
    contractRoute(app, authenticate, 'health', async () => ({ ok: true as const }));
    authRoutes(app, ctx, authenticate);
    statusRoutes(app, ctx, authenticate);
    contactsRoutes(app, ctx, authenticate);
    conversationsRoutes(app, ctx, authenticate);
    messagesRoutes(app, ctx, authenticate);
    receiptsRoutes(app, ctx, authenticate);
    livekitRoutes(app, ctx, authenticate);
    await uploadsRoutes(app, ctx, authenticate, localDiskStorage(path.join(config.dataDir, 'uploads')));
    await serveClient(app, config.clientDir, { sourceMaps: config.serveSourceMaps });

    await app.ready();
  } catch (err) {
    // A half-built server must not keep Redis or the database open (the process would never exit).
    await gateway.close();
    await db.destroy();
    throw err;
  }
  gateway.start(ctx);
  return {
    app,
    ctx,
    close: async () => {
      await gateway.close();
      await app.close();
      await db.destroy();
    },
  };
}
