// The embedded media server: LiveKit's signalling (/rtc/v1 single peer connection, legacy /rtc with two, and
// their /validate) over a websocket on its own port, media and data forwarded by werift. `npm start` runs it
// unless LIVEKIT_URL is set.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DisconnectReason,
  type JoinRequest,
  JoinRequest as JoinRequestMessage,
  JoinResponse,
  LeaveRequest,
  LeaveRequest_Action,
  ServerInfo,
  ServerInfo_Edition,
} from '@livekit/protocol';
import { WebSocketServer } from 'ws';
import { type Grants, TokenError, verifyAccessToken } from './auth';
import { defaultHostAddresses } from './host-addresses';
import { decodeJoinRequest } from './join-request';
import { type SfuLogger, silentLogger } from './logger';
import { Participant, type PeerMode } from './participant';
import type { PeerNetwork } from './peer';
import { Room } from './room';
import { CloseCode, SignalConnection } from './signal-connection';
import { tokenRefresher } from './token-refresh';

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
}

export interface Sfu {
  port: number;
  /** ws://… URL for livekit-client (on the loopback address when listening on all interfaces). */
  url: string;
  rooms: ReadonlyMap<string, Room>;
  /** Counters for the benchmark and diagnostics. */
  stats(): SfuStats;
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

interface Admission {
  grants: Grants;
  mode: PeerMode;
  joinRequest: JoinRequest | null;
}

class BadRequest extends Error {}

export async function startSfu(options: SfuOptions): Promise<Sfu> {
  const logger = options.logger ?? silentLogger;
  const hostAddresses = options.hostCandidates?.length ? options.hostCandidates : defaultHostAddresses();
  const network: PeerNetwork = {
    hostAddresses,
    allowedAddresses: new Set(hostAddresses),
    udpPortRange: options.udpPortRange ?? null,
  };
  const pingInterval = options.pingInterval ?? 5;
  const pingTimeout = options.pingTimeout ?? 15;
  const rooms = new Map<string, Room>();
  const refresher = tokenRefresher({
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    interval: options.tokenRefreshInterval ?? 5 * 60,
    ttl: options.tokenTtl ?? 10 * 60,
  });

  // livekit-client puts the token in the query; the Rust SDK sends `Authorization: Bearer`.
  const admit = async (url: URL, authorization?: string): Promise<Admission> => {
    const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1] ?? null;
    const token = url.searchParams.get('access_token') ?? bearer;
    const grants = await verifyAccessToken(token, options.apiKey, options.apiSecret);
    const mode: PeerMode = /^\/rtc\/?$|^\/rtc\/validate$/.test(url.pathname) ? 'dual' : 'single';
    if (mode === 'dual') {
      // The legacy path carries its few options as plain query parameters.
      const q = url.searchParams;
      const joinRequest = new JoinRequestMessage({
        reconnect: q.get('reconnect') === '1',
        participantSid: q.get('sid') ?? '',
        connectionSettings: { autoSubscribe: q.get('auto_subscribe') !== '0' } as never,
      });
      return { grants, mode, joinRequest };
    }
    const raw = url.searchParams.get('join_request');
    let joinRequest: JoinRequest | null = null;
    if (raw) {
      try {
        joinRequest = decodeJoinRequest(raw);
      } catch {
        throw new BadRequest('malformed join_request');
      }
    }
    return { grants, mode, joinRequest };
  };

  const roomFor = (name: string): Room => {
    let room = rooms.get(name);
    if (!room) {
      room = new Room(name, network, logger, (r) => {
        if (rooms.get(r.name) === r) rooms.delete(r.name);
        logger.info({ room: r.name }, 'room closed');
      });
      rooms.set(name, room);
      logger.info({ room: name }, 'room created');
    }
    return room;
  };

  const serverInfo = new ServerInfo({
    edition: ServerInfo_Edition.Standard,
    version: SFU_VERSION,
    protocol: PROTOCOL_VERSION,
    nodeId: 'embedded',
  });

  const resume = (ws: import('ws').WebSocket, grants: Grants, sid: string): boolean => {
    const room = rooms.get(grants.room);
    const p = room?.participants.get(sid);
    if (!room || !p || p.identity !== grants.identity) return false;
    const signal = new SignalConnection(ws, logger, (msg) => p.handle(msg));
    p.attachSignal(signal);
    signal.onClose(() => p.detachSignal(signal));
    p.send({ case: 'reconnect', value: { iceServers: [], serverInfo, lastMessageSeq: 0 } as never });
    // Whatever changed while the signal was down: everybody's current state, versions newer than before.
    for (const other of room.participants.values()) {
      if (other !== p && !other.grants.hidden) p.send({ case: 'update', value: { participants: [other.info()] } as never });
    }
    logger.info({ room: room.name, participant: p.identity }, 'participant resumed');
    return true;
  };

  const accept = (ws: import('ws').WebSocket, { grants, mode, joinRequest }: Admission): void => {
    if (joinRequest?.reconnect && joinRequest.participantSid) {
      if (resume(ws, grants, joinRequest.participantSid)) return;
      // Nothing to resume: the client falls back to a full reconnect after this leave.
      const signal = new SignalConnection(ws, logger, () => {});
      signal.send({
        case: 'leave',
        value: new LeaveRequest({ canReconnect: true, action: LeaveRequest_Action.RECONNECT, reason: DisconnectReason.STATE_MISMATCH }),
      });
      signal.close(CloseCode.normal, 'session to resume not found');
      return;
    }
    // Replace a session with the same identity first: that may close the room, which roomFor then remakes.
    const existing = rooms.get(grants.room);
    for (const other of [...(existing?.participants.values() ?? [])]) {
      if (other.identity === grants.identity) existing?.leave(other, 'duplicate identity', DisconnectReason.DUPLICATE_IDENTITY);
    }
    const room = roomFor(grants.room);
    const p = new Participant(grants, room, mode);
    p.autoSubscribe = joinRequest?.connectionSettings?.autoSubscribe ?? true;
    const signal = new SignalConnection(ws, logger, (msg) => p.handle(msg));
    p.attachSignal(signal);
    signal.onClose(() => p.detachSignal(signal));
    const joined = room.join(p);
    p.send({
      case: 'join',
      value: new JoinResponse({
        room: joined.room,
        participant: p.info(),
        otherParticipants: joined.otherParticipants,
        serverVersion: SFU_VERSION,
        serverInfo,
        serverRegion: '',
        pingInterval,
        pingTimeout,
        subscriberPrimary: false,
        iceServers: [],
      }),
    });
    room.participantChanged(p);
    logger.info({ room: room.name, participant: p.identity }, 'participant joined');
    if (joinRequest?.publisherOffer) p.handle({ case: 'offer', value: joinRequest.publisherOffer });
    room.subscribeToExisting(p);
  };

  const httpServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sfu');
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'GET' && (url.pathname === '/rtc/v1/validate' || url.pathname === '/rtc/validate')) {
      admit(url, req.headers.authorization).then(
        () => res.writeHead(200, { 'content-type': 'text/plain' }).end('success'),
        (err: unknown) => {
          const status = err instanceof TokenError ? err.status : 400;
          res.writeHead(status, { 'content-type': 'text/plain' }).end(errorText(err));
        },
      );
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  httpServer.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://sfu');
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${text}`);
    };
    if (url.pathname !== '/rtc/v1' && url.pathname !== '/rtc' && url.pathname !== '/rtc/') {
      refuse(404, 'not found');
      return;
    }
    admit(url, req.headers.authorization).then(
      (admission) =>
        wss.handleUpgrade(req, socket, head, (ws) => {
          try {
            accept(ws, admission);
          } catch (err) {
            logger.error({ err: String(err) }, 'join failed');
            ws.close(CloseCode.policy, 'join failed');
          }
        }),
      (err: unknown) => {
        logger.info({ reason: errorText(err) }, 'signal connection refused');
        refuse(err instanceof TokenError ? err.status : 400, errorText(err));
      },
    );
  });

  // A participant whose client stopped talking (closed tab, lost network) is removed after the ping timeout;
  // the others get a fresh token when theirs is due.
  const sweeper = setInterval(() => {
    const deadline = Date.now() - pingTimeout * 1000;
    for (const room of rooms.values()) {
      for (const p of [...room.participants.values()]) if (p.lastSeen < deadline) room.leave(p, 'ping timeout');
    }
    const connected = [...rooms.values()].flatMap((room) => [...room.participants.values()]);
    refresher.refresh(connected).catch((err: unknown) => logger.error({ err: String(err) }, 'token refresh failed'));
  }, 1000);
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  const host = !options.host || options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  logger.info({ port, hostCandidates: hostAddresses }, 'embedded SFU listening');

  return {
    port,
    url: `ws://${host}:${port}`,
    rooms,
    stats: () => {
      const out: SfuStats = { rooms: rooms.size, participants: 0, publishedTracks: 0, subscriptions: 0, packetsIn: 0, packetsOut: 0, bytesOut: 0 };
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
    close: async () => {
      clearInterval(sweeper);
      for (const room of [...rooms.values()]) room.close('server shutting down');
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
    },
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
