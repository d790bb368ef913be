// The embedded media server: LiveKit's signalling (/rtc/v1 single peer connection, legacy /rtc with two, and
// their /validate) over a websocket on its own port (signal-server.ts), rooms and sessions (rooms.ts), media and
// data forwarded by werift. `npm start` runs it unless LIVEKIT_URL is set.
import { DisconnectReason, ServerInfo, ServerInfo_Edition } from '@livekit/protocol';
import { defaultHostAddresses } from './host-addresses';
import { type SfuLogger, silentLogger } from './logger';
import { applyFastSrtpPatch, fastSrtpFromEnv } from './media/srtp-fast';
import type { PeerNetwork } from './session/peer';
import type { Room } from './session/room';
import { Rooms } from './session/rooms';
import { SignalConnection } from './transport/signal-connection';
import { type SignalServer, startSignalServer } from './transport/signal-server';
import { tokenRefresher } from './transport/token-refresh';
import { iceServersFor, type TurnOptions, turnFromEnv } from './transport/turn';

export const SFU_VERSION = '1.9.0';
/** livekit-client 2.23 speaks protocol 16. */
const PROTOCOL_VERSION = 16;

export interface SfuOptions {
  port: number;
  host?: string;
  apiKey: string;
  apiSecret: string;
  /** Addresses advertised as ICE host candidates; null = loopback and the LAN addresses of this machine. */
  hostCandidates?: string[] | null;
  /** UDP ports media may use, e.g. [50000, 50100] for a firewall rule; null = any free port. */
  udpPortRange?: [number, number] | null;
  logger?: SfuLogger;
  /** Seconds between client pings, and without any signal message before a participant is removed. */
  pingInterval?: number;
  pingTimeout?: number;
  /** Seconds between fresh tokens sent to a connected participant (LiveKit: 5 min), and their lifetime (10 min). */
  tokenRefreshInterval?: number;
  tokenTtl?: number;
  /** TURN server (coturn with use-auth-secret) handed to clients; undefined = TURN_URLS/TURN_SECRET, null = none. */
  turn?: TurnOptions | null;
  /**
   * SRTP through srtp-fast.ts instead of werift's own code (default: on unless SFU_FAST_SRTP is off/0/false). It
   * stays off, whatever this says, when werift's internals fail the start-up check. Process-wide.
   */
  fastSrtp?: boolean;
  /** Fit each subscriber's layers to its downlink estimate (default true; down-tracks.ts). */
  bandwidthAllocation?: boolean;
  /** Transport-cc feedback to publishers (default true; session/uplink-feedback.ts). */
  uplinkFeedback?: boolean;
  /**
   * The time access tokens are checked against and refreshed tokens issued at (ms since the epoch); the system
   * clock unless a test moves its own. Pings, sweeps and media keep the real clock.
   */
  now?: () => number;
}

export interface Sfu {
  port: number;
  /** ws://… URL for livekit-client (on the loopback address when listening on all interfaces). */
  url: string;
  rooms: ReadonlyMap<string, Room>;
  /** Counters for the benchmark and diagnostics. */
  stats(): SfuStats;
  /**
   * Disconnects these identities from a room (LiveKit's RemoveParticipant): someone who lost access to the
   * conversation leaves its call at once. Returns how many were there.
   */
  removeParticipants(room: string, identities: readonly string[]): number;
  /** Signalling for the app's own HTTPS port (served there under /sfu): see signal-server.ts. */
  signal: Pick<SignalServer, 'handleRequest' | 'handleUpgrade'>;
  close(): Promise<void>;
}

export interface SfuStats {
  rooms: number;
  participants: number;
  publishedTracks: number;
  subscriptions: number;
  packetsIn: number;
  packetsOut: number;
  /** RTP payload bytes forwarded. */
  bytesOut: number;
}

export async function startSfu(options: SfuOptions): Promise<Sfu> {
  const logger = options.logger ?? silentLogger;
  const hostAddresses = options.hostCandidates?.length ? options.hostCandidates : defaultHostAddresses();
  const network: PeerNetwork = {
    hostAddresses,
    allowedAddresses: new Set(hostAddresses),
    udpPortRange: options.udpPortRange ?? null,
    uplinkFeedback: options.uplinkFeedback ?? true,
  };
  applyFastSrtpPatch(options.fastSrtp ?? fastSrtpFromEnv(process.env), (message) => logger.warn(message));
  const turn = options.turn === undefined ? turnFromEnv(process.env) : options.turn;
  const pingInterval = options.pingInterval ?? 5;
  const pingTimeout = options.pingTimeout ?? 15;
  const now = options.now ?? Date.now;
  const refresher = tokenRefresher({
    now,
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    interval: options.tokenRefreshInterval ?? 5 * 60,
    ttl: options.tokenTtl ?? 10 * 60,
  });
  const registry = new Rooms({
    network,
    logger,
    serverInfo: new ServerInfo({
      edition: ServerInfo_Edition.Standard,
      version: SFU_VERSION,
      protocol: PROTOCOL_VERSION,
      nodeId: 'embedded',
    }),
    serverVersion: SFU_VERSION,
    pingInterval,
    pingTimeout,
    iceServersFor: (identity) => iceServersFor(turn, identity),
    bandwidthAllocation: options.bandwidthAllocation ?? true,
  });
  const rooms = registry.rooms;
  const signalServer = await startSignalServer({
    port: options.port,
    host: options.host ?? '0.0.0.0',
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    logger,
    now,
    accept: (ws, { grants, mode, joinRequest }) =>
      registry.accept((onRequest) => new SignalConnection(ws, logger, onRequest), grants, mode, joinRequest),
  });

  // A participant whose client stopped talking (closed tab, lost network) is removed after the ping timeout;
  // the others get a fresh token when theirs is due.
  const sweeper = setInterval(() => {
    registry.sweep(Date.now() - pingTimeout * 1000);
    refresher
      .refresh(registry.participants())
      .catch((err: unknown) => logger.error({ err: String(err) }, 'token refresh failed'));
  }, 1000);
  sweeper.unref();

  const port = signalServer.port;
  const host = !options.host || options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  logger.info({ port, hostCandidates: hostAddresses, turn: turn?.urls ?? [] }, 'embedded SFU listening');

  return {
    port,
    url: `ws://${host}:${port}`,
    rooms,
    signal: { handleRequest: signalServer.handleRequest, handleUpgrade: signalServer.handleUpgrade },
    stats: () => {
      const out: SfuStats = {
        rooms: rooms.size,
        participants: 0,
        publishedTracks: 0,
        subscriptions: 0,
        packetsIn: 0,
        packetsOut: 0,
        bytesOut: 0,
      };
      for (const room of rooms.values()) {
        for (const p of room.participants.values()) {
          out.participants++;
          out.subscriptions += p.subscriptions.size;
          for (const t of p.published.values()) {
            out.publishedTracks++;
            out.packetsIn += t.packetsIn;
            out.packetsOut += t.packetsOut;
            out.bytesOut += t.bytesOut;
          }
        }
      }
      return out;
    },
    removeParticipants: (name, identities) => {
      const room = rooms.get(name);
      if (!room) return 0;
      let removed = 0;
      for (const p of [...room.participants.values()]) {
        if (!identities.includes(p.identity)) continue;
        room.leave(p, 'removed from the conversation', DisconnectReason.PARTICIPANT_REMOVED);
        removed++;
      }
      return removed;
    },
    close: async () => {
      clearInterval(sweeper);
      registry.close('server shutting down');
      await signalServer.close();
    },
  };
}
