// The embedded media server: LiveKit's signalling (/rtc/v1 single peer connection, legacy /rtc with two, and
// their /validate) over a websocket on its own port (signal-server.ts), rooms and sessions (rooms.ts), media and
// data forwarded by werift. `npm start` runs it unless LIVEKIT_URL is set.
import { availableParallelism } from 'node:os';
import { type EngineConfig, emptyStats, type RoomMember, type SfuStats, startEngine } from './engine';
import { defaultHostAddresses } from './host-addresses';
import { type SfuLogger, silentLogger } from './logger';
import { leanReceiveFromEnv } from './media/rtp-receive';
import { fastSrtpFromEnv } from './media/srtp-fast';
import type { SfuTransport } from './session/peer';
import { loadTransport } from './session/peer-factory';
import type { Room } from './session/room';
import { SignalConnection } from './transport/signal-connection';
import { type SignalServer, startSignalServer } from './transport/signal-server';
import { type TurnOptions, turnFromEnv } from './transport/turn';
import { webhookNotifier } from './transport/webhooks';
import { WorkerPool } from './workers/pool';

export type { RoomMember, SfuStats } from './engine';
export { SFU_VERSION } from './engine';

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
  /**
   * Publishers' packets through media/rtp-receive.ts (no copy a packet, NACKs per simulcast stream) instead of
   * werift's receiver (default: on unless SFU_LEAN_RECEIVE is off/0/false). Process-wide.
   */
  leanReceive?: boolean;
  /** Fit each subscriber's layers to its downlink estimate (default true; down-tracks.ts). */
  bandwidthAllocation?: boolean;
  /** Transport-cc feedback to publishers (default true; session/uplink-feedback.ts). */
  uplinkFeedback?: boolean;
  /**
   * WebRTC under the media path: 'werift' (default) or 'datachannel' (libdatachannel through node-datachannel,
   * experimental: see README «Native packet path»). Default: SFU_TRANSPORT.
   */
  transport?: SfuTransport;
  /**
   * The time access tokens are checked against and refreshed tokens issued at (ms since the epoch); the system
   * clock unless a test moves its own. Pings, sweeps and media keep the real clock.
   */
  now?: () => number;
  /**
   * Media worker threads the rooms are spread over (workers/pool.ts); 0 keeps them in this thread, where `rooms`
   * shows them. Default: SFU_WORKERS, else one per core — and 0 when a test sets `now` (a clock does not cross
   * threads).
   */
  workers?: number;
  /**
   * Where LiveKit-format webhooks go (participant_joined, participant_left, room_finished), as LiveKit's
   * `webhook.urls`: transport/webhooks.ts. Default: SFU_WEBHOOK_URLS (comma-separated); none when empty.
   */
  webhookUrls?: readonly string[];
}

/** The media workers, when rooms run on them. */
export interface SfuWorkers {
  count: number;
  /** Which worker (index) holds each room. */
  placement(): ReadonlyMap<string, number>;
  /** Each worker's figures, as last reported (each second). */
  stats(): SfuStats[];
  /** Stops a worker as a crash would: tests and diagnostics. */
  terminate(index: number): Promise<void>;
  isReady(index: number): boolean;
}

/** SFU_WORKERS: a count, or one per core when unset or not a number. */
export function workersFromEnv(env: NodeJS.ProcessEnv): number {
  const n = Number.parseInt(env.SFU_WORKERS ?? '', 10);
  return Number.isFinite(n) && n >= 0 ? n : availableParallelism();
}

export interface Sfu {
  port: number;
  /** ws://… URL for livekit-client (on the loopback address when listening on all interfaces). */
  url: string;
  /** The rooms themselves, with no media workers only (they are in the workers' threads otherwise): tests. */
  rooms: ReadonlyMap<string, Room>;
  /** null when rooms run in this thread (`workers: 0`). */
  workers: SfuWorkers | null;
  /** Counters for the benchmark and diagnostics (from workers: as of their last report, a second old at most). */
  stats(): SfuStats;
  /**
   * Disconnects these identities from a room (LiveKit's RemoveParticipant): someone who lost access to the
   * conversation leaves its call at once. Resolves to how many were there.
   */
  removeParticipants(room: string, identities: readonly string[]): Promise<number>;
  /** Who is in a room now, wherever it runs (tests and diagnostics); empty when there is no such room. */
  participants(room: string): Promise<RoomMember[]>;
  /**
   * Hears who is in a room (identities) after each join and leave, wherever the room runs: the app ends a guest's
   * admission when the call is over. One listener; a later call replaces it.
   */
  onParticipants(listener: ((room: string, identities: readonly string[]) => void) | null): void;
  /** Signalling for the app's own HTTPS port (served there under /sfu): see signal-server.ts. */
  signal: Pick<SignalServer, 'handleRequest' | 'handleUpgrade'>;
  close(): Promise<void>;
}

/** How long a removal refuses older tokens: longer than any token the app or the SFU's refresher issues. */
export const REMOVAL_MEMORY_MS = 24 * 3_600_000;

export async function startSfu(options: SfuOptions): Promise<Sfu> {
  const logger = options.logger ?? silentLogger;
  const hostAddresses = options.hostCandidates?.length ? options.hostCandidates : defaultHostAddresses();
  const turn = options.turn === undefined ? turnFromEnv(process.env) : options.turn;
  const config: EngineConfig = {
    hostAddresses,
    udpPortRange: options.udpPortRange ?? null,
    uplinkFeedback: options.uplinkFeedback ?? true,
    bandwidthAllocation: options.bandwidthAllocation ?? true,
    fastSrtp: options.fastSrtp ?? fastSrtpFromEnv(process.env),
    leanReceive: options.leanReceive ?? leanReceiveFromEnv(process.env),
    transport: options.transport ?? transportFromEnv(process.env),
    pingInterval: options.pingInterval ?? 5,
    pingTimeout: options.pingTimeout ?? 15,
    turn,
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    tokenRefreshInterval: options.tokenRefreshInterval ?? 5 * 60,
    tokenTtl: options.tokenTtl ?? 10 * 60,
  };
  const now = options.now ?? Date.now;
  const asked = options.workers ?? (options.now ? 0 : workersFromEnv(process.env));
  // node-datachannel aborts the process when its addon runs in two worker threads (a V8 handle made outside its
  // scope): the native path keeps its rooms in this thread.
  const workerCount = config.transport === 'datachannel' ? 0 : asked;
  if (workerCount !== asked) logger.warn({ workers: asked }, 'SFU_TRANSPORT=datachannel: rooms run in the main thread');
  let listener: ((room: string, identities: readonly string[]) => void) | null = null;
  let webhooks: ReturnType<typeof webhookNotifier> | null = null;
  const report = (room: string, identities: string[]) => {
    listener?.(room, identities);
    webhooks?.changed(room);
  };
  const pool = workerCount > 0 ? await WorkerPool.start(workerCount, config, logger, report) : null;
  if (!pool) await loadTransport(config.transport);
  const engine = pool ? null : startEngine(config, { logger, now, onParticipants: report });
  const members = async (name: string) => (pool ? pool.members(name) : (engine?.members(name) ?? []));
  const remove = async (name: string, identities: readonly string[]) =>
    pool ? pool.removeParticipants(name, identities) : (engine?.removeParticipants(name, identities) ?? 0);
  const webhookUrls = options.webhookUrls ?? webhookUrlsFromEnv(process.env);
  if (webhookUrls.length)
    webhooks = webhookNotifier({
      urls: webhookUrls,
      apiKey: options.apiKey,
      apiSecret: options.apiSecret,
      now,
      logger,
      members,
    });

  // Who was removed from a room and when: a token issued before the removal no longer joins it (a removed guest or
  // member would otherwise come back with the token still in their tab until it expires). Kept as long as a token
  // lives at most, renewed tokens included.
  const removedAt = new Map<string, number>();
  const removalKey = (room: string, identity: string) => `${room}\u0000${identity}`;
  const recordRemoval = (room: string, identities: readonly string[], at = now()) => {
    for (const [key, t] of removedAt) if (t < at - REMOVAL_MEMORY_MS) removedAt.delete(key);
    for (const identity of identities) removedAt.set(removalKey(room, identity), at);
  };

  let signalServer: SignalServer;
  try {
    signalServer = await startSignalServer({
      port: options.port,
      host: options.host ?? '0.0.0.0',
      apiKey: options.apiKey,
      apiSecret: options.apiSecret,
      logger,
      now,
      refuse: (grants) => {
        const at = removedAt.get(removalKey(grants.room, grants.identity));
        // nbf has whole seconds: a token issued in the removal's own second counts as older (a member let back in
        // that quickly joins with the token of the next second).
        return at !== undefined && grants.issuedAt <= at
          ? 'permission denied: removed from the room after this token was issued'
          : null;
      },
      roomService: {
        members: (room) => members(room),
        remove: async (room, identity, revokeBefore) => {
          recordRemoval(room, [identity], revokeBefore);
          return remove(room, [identity]);
        },
      },
      accept: (ws, admission) => {
        if (pool) pool.accept(ws, admission);
        else
          engine?.registry.accept(
            (onRequest) => new SignalConnection(ws, logger, onRequest),
            admission.grants,
            admission.mode,
            admission.joinRequest,
          );
      },
    });
  } catch (err) {
    await pool?.close('start-up failed');
    engine?.close('start-up failed');
    throw err;
  }

  const port = signalServer.port;
  const host = !options.host || options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  logger.info(
    { port, hostCandidates: hostAddresses, turn: turn?.urls ?? [], workers: workerCount },
    'embedded SFU listening',
  );

  const noRooms: ReadonlyMap<string, Room> = new Map();
  return {
    port,
    url: `ws://${host}:${port}`,
    get rooms() {
      if (pool) throw new Error('the rooms are in the media workers (SFU_WORKERS=0 keeps them here)');
      return engine?.registry.rooms ?? noRooms;
    },
    workers: pool && {
      count: workerCount,
      placement: () => pool.placement(),
      stats: () => pool.workerStats(),
      terminate: (index) => pool.terminate(index),
      isReady: (index) => pool.isReady(index),
    },
    signal: { handleRequest: signalServer.handleRequest, handleUpgrade: signalServer.handleUpgrade },
    stats: () => (pool ? pool.stats() : (engine?.stats() ?? emptyStats())),
    removeParticipants: async (name, identities) => {
      recordRemoval(name, identities);
      return remove(name, identities);
    },
    participants: members,
    onParticipants: (next) => {
      listener = next;
    },
    close: async () => {
      if (pool) await pool.close('server shutting down');
      engine?.close('server shutting down');
      await webhooks?.idle();
      await signalServer.close();
    },
  };
}

/** SFU_WEBHOOK_URLS: comma-separated addresses LiveKit-format webhooks are POSTed to. */
export function webhookUrlsFromEnv(env: NodeJS.ProcessEnv): string[] {
  return (env.SFU_WEBHOOK_URLS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** SFU_TRANSPORT: 'datachannel' selects node-datachannel; anything else (or unset) werift. */
export function transportFromEnv(env: NodeJS.ProcessEnv): SfuTransport {
  const v = env.SFU_TRANSPORT?.trim().toLowerCase();
  if (v === 'datachannel') return 'datachannel';
  if (v && v !== 'werift') throw new Error(`SFU_TRANSPORT must be werift or datachannel, not ${v}`);
  return 'werift';
}
