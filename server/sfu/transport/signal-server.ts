// The SFU's HTTP side: the signalling websocket upgrade (/rtc/v1 single peer connection, legacy /rtc) with its
// token check, the /validate endpoints livekit-client calls when an upgrade fails, and LiveKit's RoomService API
// (room-service.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ConnectionSettings, type JoinRequest, JoinRequest as JoinRequestMessage } from '@livekit/protocol';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SfuLogger } from '../logger';
import type { PeerMode } from '../session/participant';
import { CloseCode } from '../signal';
import { type Grants, TokenError, verifyAccessToken } from './auth';
import { decodeJoinRequest } from './join-request';
import { handleRoomService, ROOM_SERVICE_PREFIX, type RoomServiceOptions } from './room-service';

export interface Admission {
  grants: Grants;
  mode: PeerMode;
  joinRequest: JoinRequest | null;
}

export interface SignalServerOptions {
  port: number;
  host: string;
  apiKey: string;
  apiSecret: string;
  logger: SfuLogger;
  /** The time tokens are checked against (ms since the epoch). */
  now: () => number;
  /** Why a valid token may not join now (its holder was removed from the room after it was issued), or null. */
  refuse?(grants: Grants): string | null;
  /** An authenticated websocket: join or resume. */
  accept(ws: WebSocket, admission: Admission): void;
  /** LiveKit's RoomService (Twirp) under /twirp/livekit.RoomService/: room-service.ts. */
  roomService?: Omit<RoomServiceOptions, 'apiKey' | 'apiSecret' | 'now'>;
}

export interface SignalServer {
  port: number;
  /**
   * The same signalling for another server's requests (the app's HTTPS port serves it under /sfu when it holds
   * the certificate itself): the path as the SFU sees it, `/rtc/v1…`.
   */
  handleRequest(req: http.IncomingMessage, res: http.ServerResponse): void;
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

class BadRequest extends Error {}

export async function startSignalServer(o: SignalServerOptions): Promise<SignalServer> {
  const { logger } = o;
  // livekit-client puts the token in the query; the Rust SDK sends `Authorization: Bearer`.
  const admit = async (url: URL, authorization?: string): Promise<Admission> => {
    const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1] ?? null;
    const token = url.searchParams.get('access_token') ?? bearer;
    const grants = await verifyAccessToken(token, o.apiKey, o.apiSecret, o.now());
    const refused = o.refuse?.(grants);
    if (refused) throw new TokenError(refused, 403);
    const mode: PeerMode = /^\/rtc\/?$|^\/rtc\/validate$/.test(url.pathname) ? 'dual' : 'single';
    if (mode === 'dual') {
      // The legacy path carries its few options as plain query parameters.
      const q = url.searchParams;
      const joinRequest = new JoinRequestMessage({
        reconnect: q.get('reconnect') === '1',
        participantSid: q.get('sid') ?? '',
        connectionSettings: new ConnectionSettings({ autoSubscribe: q.get('auto_subscribe') !== '0' }),
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

  const handleRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
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
    if (o.roomService && url.pathname.startsWith(ROOM_SERVICE_PREFIX)) {
      handleRoomService({ ...o.roomService, apiKey: o.apiKey, apiSecret: o.apiSecret, now: o.now }, req, res);
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const handleUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://sfu');
    const refuse = (status: number, text: string) => {
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${text}`,
      );
    };
    if (url.pathname !== '/rtc/v1' && url.pathname !== '/rtc' && url.pathname !== '/rtc/') {
      refuse(404, 'not found');
      return;
    }
    admit(url, req.headers.authorization).then(
      (admission) =>
        wss.handleUpgrade(req, socket, head, (ws) => {
          try {
            o.accept(ws, admission);
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
  };
  const httpServer = http.createServer(handleRequest);
  httpServer.on('upgrade', handleUpgrade);

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(o.port, o.host, () => resolve());
  });
  return {
    port: (httpServer.address() as AddressInfo).port,
    handleRequest,
    handleUpgrade,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
    },
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
