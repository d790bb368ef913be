// Builds the whole HTTP server for a configuration out of plugins: the root's shared parts first (base.ts,
// authentication, realtime gateway, list cache, push), then one encapsulated plugin per feature, whose
// hooks, parsers and rate limits stay its own. main.ts listens on it; tests build one per suite on a free port
// with a temporary data directory.
import Fastify, { type FastifyInstance } from 'fastify';
import { adminRoutes } from './admin/admin.routes';
import { administrationPlugin } from './admin/administration.plugin';
import { retentionPlugin } from './admin/retention';
import type { AccessTokens } from './auth/access-tokens';
import { authRoutes } from './auth/auth.routes';
import { authenticationPlugin } from './auth/authenticate';
import { endedSessionsSync } from './auth/ended-sessions.plugin';
import { sessionsRoutes } from './auth/sessions.routes';
import { signInsPlugin } from './auth/sign-ins';
import { twoFactorRoutes } from './auth/two-factor.routes';
import { backupsPlugin } from './backups/backups.plugin';
import { basePlugin } from './base';
import { callHistoryRoutes } from './calls/call-history.routes';
import { callRelay } from './calls/call-relay';
import { groupCallRelay } from './calls/group-call-relay';
import { type Clock, systemClock } from './clock';
import type { Config } from './config';
import { contactsRoutes } from './contacts/contacts.routes';
import { conversationRooms } from './conversations/conversation-rooms';
import { conversationsRoutes } from './conversations/conversations.routes';
import { groupsRoutes } from './conversations/groups.routes';
import type { ConversationListCache } from './conversations/list-cache';
import { listsPlugin } from './conversations/lists.plugin';
import type { Database, Dialect } from './db/database';
import { directoryRoutes } from './directory/directory.routes';
import { exportRoutes } from './export/export.routes';
import { foldersRoutes } from './folders/folders.routes';
import { guestsPlugin } from './guests/guests.plugin';
import { clientStatic } from './http/client-static';
import { closeKeepAlive } from './http/close-keep-alive';
import { contractRoute } from './http/contract-route';
import { installErrorHandler } from './http/errors';
import { requestLogFor } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { importsRoutes } from './imports/imports.plugin';
import { mediaGatewayPlugin } from './livekit/media-gateway';
import { mediaRoomsPlugin } from './livekit/media-rooms';
import { livekitRoutes } from './livekit/token.routes';
import { livekitWebhookRoutes } from './livekit/webhook.routes';
import { messageActionsRoutes } from './messages/message-actions.routes';
import { messageEditsRoutes } from './messages/message-edits.routes';
import { messagesRoutes } from './messages/messages.routes';
import { receiptsRoutes } from './messages/receipts.routes';
import { proxyTrust } from './net/client-address';
import { metricsPlugin } from './observability/metrics.plugin';
import { readinessRoute } from './observability/readiness';
import { requestIdOf, requestIds } from './observability/request-id';
import { pollsRoutes } from './polls/polls.routes';
import { previewsPlugin } from './previews/previews.plugin';
import type { PushNotifier } from './push/push.plugin';
import { pushPlugin } from './push/push.plugin';
import type { Realtime } from './realtime/gateway';
import { realtimePlugin } from './realtime/realtime.plugin';
import type { SessionSockets } from './realtime/socket-sessions';
import { scheduledRoutes } from './scheduled/scheduled.routes';
import { searchRoutes } from './search/search.routes';
import { secretRoutes } from './secret/secret.plugin';
import { secretBackupRoutes } from './secret/secret-backup';
import { secretUploadsRoutes } from './secret/secret-uploads';
import type { Secrets } from './secrets';
import { threadsRoutes } from './threads/threads.routes';
import { storagesFor } from './uploads/storage-for';
import { uploadsRoutes } from './uploads/uploads.routes';
import { blocksPlugin } from './users/blocks.plugin';
import { blocksRoutes } from './users/blocks.routes';
import { statusRoutes } from './users/status.routes';

export const JSON_BODY_LIMIT_BYTES = 100 * 1024;

/**
 * The root's shared parts, for main.ts and tests (a test reads the database or moves the list cache). Routes never
 * get this bag: each plugin names the decorators it uses (`decorators` and `dependencies` in its options).
 */
export interface ServerParts {
  config: Config;
  /** The time the server's rules run on (clock.ts). */
  clock: Clock;
  db: Database;
  dialect: Dialect;
  secrets: Secrets;
  accessTokens: AccessTokens;
  realtime: Realtime;
  /** Closes a sign-in's sockets on every server process (logout). */
  sessions: SessionSockets;
  /** Serialized conversation lists; every change that shows in a list must call `lists.changed`. */
  lists: ConversationListCache;
  /** Web Push to the browsers of users with no connected socket (server/push/). */
  push: PushNotifier;
}

export interface Server {
  app: FastifyInstance;
  ctx: ServerParts;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** The time the server's rules run on (clock.ts); tests hand in one they move themselves. */
  clock?: Clock;
  /** Where log lines go instead of stdout (tests that read what the server logs). */
  logStream?: { write(line: string): void };
  /** Serve HTTPS with this key and certificate (server/tls); later ones through `app.server.setSecureContext`. */
  https?: { key: string; cert: string };
}

export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  // Storage first: a missing or unreachable bucket stops the start before anything is opened.
  const storages = storagesFor(config);
  try {
    await storages.check();
  } catch (err) {
    storages.close();
    throw err;
  }
  const app = Fastify({
    ...(options.https ? { https: { key: options.https.key, cert: options.https.cert } } : {}),
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    logController: requestLogFor(config.logLevel),
    // API bodies are small (a 4,000-character message is ~16 KB as JSON): anything larger is refused with 413
    // before it is read or parsed. Uploads are multipart, streamed under their own limit (UPLOAD_LIMIT_MB).
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // X-Forwarded-* only from the proxies named in TRUST_PROXY (server/net/client-address.ts); none when unset.
    trustProxy: config.trustProxy.length > 0 ? proxyTrust(config.trustProxy) : false,
    // The incoming X-Request-Id when sane, else a UUID (request-id.ts); not Fastify's counter, which restarts at 1.
    requestIdHeader: false,
    genReqId: requestIdOf,
  });
  // Set on the root before any plugin, so every plugin inherits them.
  installErrorHandler(app);
  // The API speaks JSON (and multipart for uploads); a text/plain body is a client mistake, answered 415.
  app.removeContentTypeParser('text/plain');

  app.register(basePlugin, { config, clock: options.clock ?? systemClock });
  app.register(closeKeepAlive);
  app.register(requestIds);
  app.register(securityHeaders);
  app.register(authenticationPlugin);
  // socket.io shares Fastify's HTTP server (one port); the hub it provides is what routes emit through.
  app.register(realtimePlugin);
  app.register(endedSessionsSync);
  app.register(listsPlugin);
  app.register(blocksPlugin);
  app.register(mediaRoomsPlugin);
  app.register(mediaGatewayPlugin);
  // Before the routes: its response hook measures every route registered after it.
  app.register(metricsPlugin);
  app.register(pushPlugin);
  app.register(signInsPlugin);
  app.register(administrationPlugin);
  app.register(backupsPlugin);

  app.register(async function health(api) {
    contractRoute(api, 'health', async () => ({ ok: true as const }));
  });
  app.register(authRoutes);
  app.register(adminRoutes);
  app.register(sessionsRoutes);
  app.register(twoFactorRoutes);
  app.register(statusRoutes);
  app.register(contactsRoutes);
  app.register(conversationsRoutes);
  app.register(groupsRoutes);
  app.register(directoryRoutes);
  app.register(blocksRoutes);
  app.register(foldersRoutes);
  app.register(conversationRooms);
  app.register(previewsPlugin, { storage: storages.uploads });
  app.register(messagesRoutes);
  app.register(messageEditsRoutes);
  app.register(messageActionsRoutes);
  app.register(threadsRoutes);
  app.register(pollsRoutes);
  app.register(scheduledRoutes);
  app.register(receiptsRoutes);
  app.register(searchRoutes);
  app.register(secretRoutes);
  app.register(secretBackupRoutes);
  app.register(callRelay);
  app.register(groupCallRelay);
  app.register(callHistoryRoutes);
  app.register(livekitRoutes);
  app.register(livekitWebhookRoutes);
  app.register(guestsPlugin);
  const { uploads, archives } = storages;
  app.register(readinessRoute, { uploads });
  app.register(retentionPlugin, { uploads });
  app.register(uploadsRoutes, { storage: uploads });
  app.register(secretUploadsRoutes, { storage: uploads });
  app.register(exportRoutes, { uploads, archives });
  app.register(importsRoutes, { storage: uploads });
  app.register(clientStatic, { clientDir: config.clientDir, sourceMaps: config.serveSourceMaps });

  try {
    await app.ready();
  } catch (err) {
    // A half-built server must not keep Redis or the database open (the process would never exit): the
    // plugins that did load close what they opened.
    await app.close().catch(() => {});
    storages.close();
    throw err;
  }
  const { clock, db, dialect, secrets, accessTokens, realtime, lists, push } = app;
  const ctx = { config, clock, db, dialect, secrets, accessTokens, realtime, sessions: realtime.sessions, lists, push };
  // The storages outlive the plugins' onClose hooks (an export being built finishes writing first).
  const close = async () => {
    await app.close();
    storages.close();
  };
  return { app, ctx, close };
}
