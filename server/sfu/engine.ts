// The rooms of one thread with their once-a-second sweep (silent participants out, fresh tokens sent), as the
// in-process SFU and each media worker (workers/worker.ts) run them. Everything in EngineConfig crosses a thread.
import { DisconnectReason, ServerInfo, ServerInfo_Edition } from '@livekit/protocol';
import type { SfuLogger } from './logger';
import { installRtpHeaderParser } from './media/rtp-in';
import { installLeanReceive } from './media/rtp-receive';
import { applyFastSrtpPatch } from './media/srtp-fast';
import type { PeerMode } from './session/participant';
import type { SfuTransport } from './session/peer';
import { Rooms } from './session/rooms';
import { tokenRefresher } from './transport/token-refresh';
import { iceServersFor, type TurnOptions } from './transport/turn';

export const SFU_VERSION = '1.9.0';
/** livekit-client 2.23 speaks protocol 16. */
const PROTOCOL_VERSION = 16;

export interface EngineConfig {
  hostAddresses: string[];
  udpPortRange: [number, number] | null;
  uplinkFeedback: boolean;
  bandwidthAllocation: boolean;
  fastSrtp: boolean;
  /** Publishers' packets through media/rtp-receive.ts rather than werift's receiver (SFU_LEAN_RECEIVE). */
  leanReceive: boolean;
  /** WebRTC implementation under the media path (SFU_TRANSPORT): werift, or node-datachannel (experimental). */
  transport: SfuTransport;
  pingInterval: number;
  pingTimeout: number;
  turn: TurnOptions | null;
  apiKey: string;
  apiSecret: string;
  tokenRefreshInterval: number;
  tokenTtl: number;
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

export const emptyStats = (): SfuStats => ({
  rooms: 0,
  participants: 0,
  publishedTracks: 0,
  subscriptions: 0,
  packetsIn: 0,
  packetsOut: 0,
  bytesOut: 0,
});

/** Who is in a room, as tests and diagnostics see it from any thread. */
export interface RoomMember {
  identity: string;
  sid: string;
  mode: PeerMode;
}

export interface Engine {
  registry: Rooms;
  stats(): SfuStats;
  members(room: string): RoomMember[];
  removeParticipants(room: string, identities: readonly string[]): number;
  close(reason: string): void;
}

export interface EngineHooks {
  logger: SfuLogger;
  /** The time refreshed tokens are issued at. */
  now: () => number;
  /** A room was made (true) or closed (false). */
  onRoomChange?(room: string, open: boolean): void;
  /** Who is in a room after each join and leave (identities). */
  onParticipants?(room: string, identities: string[]): void;
}

export function startEngine(c: EngineConfig, hooks: EngineHooks): Engine {
  const { logger } = hooks;
  applyFastSrtpPatch(c.fastSrtp, (message) => logger.warn(message));
  // werift's own code throughout when the fast path is turned off (SFU_FAST_SRTP=off).
  if (c.fastSrtp) installRtpHeaderParser();
  if (c.leanReceive && !installLeanReceive())
    logger.warn("werift's receiver is not shaped as expected: its own receive path runs (SFU_LEAN_RECEIVE)");
  const refresher = tokenRefresher({
    now: hooks.now,
    apiKey: c.apiKey,
    apiSecret: c.apiSecret,
    interval: c.tokenRefreshInterval,
    ttl: c.tokenTtl,
  });
  const registry = new Rooms({
    network: {
      hostAddresses: c.hostAddresses,
      allowedAddresses: new Set(c.hostAddresses),
      udpPortRange: c.udpPortRange,
      uplinkFeedback: c.uplinkFeedback,
      transport: c.transport,
    },
    logger,
    serverInfo: new ServerInfo({
      edition: ServerInfo_Edition.Standard,
      version: SFU_VERSION,
      protocol: PROTOCOL_VERSION,
      nodeId: 'embedded',
    }),
    serverVersion: SFU_VERSION,
    pingInterval: c.pingInterval,
    pingTimeout: c.pingTimeout,
    iceServersFor: (identity) => iceServersFor(c.turn, identity),
    bandwidthAllocation: c.bandwidthAllocation,
    onRoomChange: hooks.onRoomChange,
    onParticipants: hooks.onParticipants,
  });
  const rooms = registry.rooms;

  // A participant whose client stopped talking (closed tab, lost network) is removed after the ping timeout;
  // the others get a fresh token when theirs is due.
  const sweeper = setInterval(() => {
    registry.sweep(Date.now() - c.pingTimeout * 1000);
    refresher
      .refresh(registry.participants())
      .catch((err: unknown) => logger.error({ err: String(err) }, 'token refresh failed'));
  }, 1000);
  sweeper.unref();

  return {
    registry,
    stats: () => {
      const out = emptyStats();
      out.rooms = rooms.size;
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
    members: (name) =>
      [...(rooms.get(name)?.participants.values() ?? [])].map((p) => ({
        identity: p.identity,
        sid: p.sid,
        mode: p.mode,
      })),
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
    close: (reason) => {
      clearInterval(sweeper);
      registry.close(reason);
    },
  };
}
