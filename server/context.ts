// Everything a route or the gateway needs, built once per server instance.
import type { AccessTokens } from './auth/access-tokens';
import type { Config } from './config';
import type { ConversationListCache } from './conversations/list-cache';
import type { Database, Dialect } from './db/database';
import type { RealtimeHub } from './realtime/hub';
import type { SessionSockets } from './realtime/socket-sessions';
import type { Secrets } from './secrets';

export interface AppContext {
  config: Config;
  db: Database;
  dialect: Dialect;
  secrets: Secrets;
  accessTokens: AccessTokens;
  realtime: RealtimeHub;
  /** Closes a sign-in's sockets on every server process (logout). */
  sessions: SessionSockets;
  /** Serialized conversation lists; every change that shows in a list must call `lists.changed`. */
  lists: ConversationListCache;
}
