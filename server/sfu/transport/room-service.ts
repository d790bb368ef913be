// LiveKit's server API for rooms as far as the app uses it (Twirp over HTTP, JSON, at /twirp/livekit.RoomService/…):
// RemoveParticipant and ListParticipants, as livekit-server-sdk's RoomServiceClient calls them. The caller presents
// `Authorization: Bearer <token>` signed with the API secret, issued by the API key, whose video grant has roomAdmin
// for the room named in the request. The app calls it on an external LiveKit; the embedded server answers it too,
// so tests (and anyone scripting against it) meet the same API.
import type http from 'node:http';
import {
  ListParticipantsRequest,
  ListParticipantsResponse,
  ParticipantInfo,
  ParticipantInfo_State,
  RemoveParticipantResponse,
  RoomParticipantIdentity,
} from '@livekit/protocol';
import { jwtVerify } from 'jose';

export const ROOM_SERVICE_PREFIX = '/twirp/livekit.RoomService/';
const BODY_MAX = 64 * 1024;

export interface RoomServiceMember {
  identity: string;
  sid: string;
}

export interface RoomServiceOptions {
  apiKey: string;
  apiSecret: string;
  /** The time tokens are checked against (ms since the epoch). */
  now: () => number;
  members(room: string): Promise<RoomServiceMember[]>;
  /** Disconnects `identity`; tokens issued up to `revokeBefore` (ms) no longer join. Resolves to how many left. */
  remove(room: string, identity: string, revokeBefore: number): Promise<number>;
}

class TwirpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Answers a request under ROOM_SERVICE_PREFIX (the caller checked the path). */
export function handleRoomService(o: RoomServiceOptions, req: http.IncomingMessage, res: http.ServerResponse): void {
  const send = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  serve(o, req).then(
    (body) => send(200, body),
    (err: unknown) => {
      const e = err instanceof TwirpError ? err : new TwirpError(500, 'internal', String(err));
      send(e.status, { code: e.code, msg: e.message });
    },
  );
}

async function serve(o: RoomServiceOptions, req: http.IncomingMessage): Promise<unknown> {
  if (req.method !== 'POST') throw new TwirpError(405, 'bad_route', 'only POST is supported');
  const method = (req.url ?? '').split('?')[0]?.slice(ROOM_SERVICE_PREFIX.length);
  if (method !== 'RemoveParticipant' && method !== 'ListParticipants')
    throw new TwirpError(404, 'bad_route', `no handler for RoomService/${method}`);
  const text = await readBody(req);
  let json: unknown;
  try {
    json = JSON.parse(text || '{}');
  } catch {
    throw new TwirpError(400, 'malformed', 'the body is not JSON');
  }
  if (method === 'ListParticipants') {
    const request = parse(() => ListParticipantsRequest.fromJson(json as never, { ignoreUnknownFields: true }));
    await authorize(o, req.headers.authorization, request.room);
    const participants = (await o.members(request.room)).map(
      (m) => new ParticipantInfo({ identity: m.identity, sid: m.sid, state: ParticipantInfo_State.ACTIVE }),
    );
    return new ListParticipantsResponse({ participants }).toJson();
  }
  const request = parse(() => RoomParticipantIdentity.fromJson(json as never, { ignoreUnknownFields: true }));
  await authorize(o, req.headers.authorization, request.room);
  // LiveKit revokes the tokens issued before revoke_token_ts (seconds), or before now when it is not given.
  const revokeBefore = request.revokeTokenTs > 0n ? Number(request.revokeTokenTs) * 1000 : o.now();
  const removed = await o.remove(request.room, request.identity, revokeBefore);
  if (!removed) throw new TwirpError(404, 'not_found', 'participant not found');
  return new RemoveParticipantResponse().toJson();
}

function parse<T extends { room: string }>(read: () => T): T {
  let request: T;
  try {
    request = read();
  } catch {
    throw new TwirpError(400, 'malformed', 'the body is not a valid request');
  }
  if (!request.room) throw new TwirpError(400, 'invalid_argument', 'room is required');
  return request;
}

async function authorize(o: RoomServiceOptions, authorization: string | undefined, room: string): Promise<void> {
  const token = authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (!token) throw new TwirpError(401, 'unauthenticated', 'authorization header is missing');
  let video: { roomAdmin?: boolean; room?: string };
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(o.apiSecret), {
      issuer: o.apiKey,
      algorithms: ['HS256'],
      clockTolerance: 5,
      currentDate: new Date(o.now()),
    });
    video = (payload.video ?? {}) as typeof video;
  } catch {
    throw new TwirpError(401, 'unauthenticated', 'invalid token');
  }
  if (!video.roomAdmin || (video.room && video.room !== room))
    throw new TwirpError(403, 'permission_denied', 'the token does not grant roomAdmin for this room');
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_MAX) {
        reject(new TwirpError(413, 'malformed', 'the body is too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
