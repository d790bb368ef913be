// LiveKit's webhooks from the embedded media server (SFU_WEBHOOK_URLS, as LiveKit's `webhook.urls`):
// participant_joined, participant_left and room_finished, each a WebhookEvent in protobuf JSON, POSTed with
// `Content-Type: application/webhook+json` and `Authorization: <token>`: a JWT signed with the API secret, issued
// by the API key, whose `sha256` claim is the base64 SHA-256 of the body (what livekit-server-sdk's
// WebhookReceiver checks). Whoever hears them is told as an external LiveKit would tell them.
//
// The rooms report who is in them after each join and leave (identities); the notifier looks the participants up
// (sids) and sends the difference from what it last sent, in order. A room whose last participant left is
// finished at once (LiveKit waits for its departure timeout first). Delivery is tried once; a failure is logged.
import { createHash } from 'node:crypto';
import { ParticipantInfo, ParticipantInfo_State, Room as RoomMessage, WebhookEvent } from '@livekit/protocol';
import { SignJWT } from 'jose';
import { newSid } from '../ids';
import type { SfuLogger } from '../logger';

export const WEBHOOK_CONTENT_TYPE = 'application/webhook+json';
/** Lifetime of a webhook's token, seconds: LiveKit's own. */
const TOKEN_TTL = 5 * 60;

export interface WebhookMember {
  identity: string;
  sid: string;
}

export interface WebhookOptions {
  urls: readonly string[];
  apiKey: string;
  apiSecret: string;
  /** The time events and tokens carry (ms since the epoch). */
  now: () => number;
  logger: SfuLogger;
  /** Who is in a room now (empty when there is no such room). */
  members(room: string): Promise<WebhookMember[]>;
}

interface Known {
  sid: string;
  createdAt: number;
  members: Map<string, { identity: string; joinedAt: number }>;
}

export interface WebhookNotifier {
  /** A room's participants changed: the events follow, in order. */
  changed(room: string): void;
  /** Resolves when every event so far has been sent (or failed). */
  idle(): Promise<void>;
}

export function webhookNotifier(o: WebhookOptions): WebhookNotifier {
  const secret = new TextEncoder().encode(o.apiSecret);
  const rooms = new Map<string, Known>();
  let queue: Promise<void> = Promise.resolve();

  const sign = (body: string) => {
    const now = Math.floor(o.now() / 1000);
    return new SignJWT({ sha256: createHash('sha256').update(body).digest('base64') })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(o.apiKey)
      .setNotBefore(now)
      .setExpirationTime(now + TOKEN_TTL)
      .sign(secret);
  };

  const send = async (event: WebhookEvent) => {
    const body = event.toJsonString();
    const token = await sign(body);
    for (const url of o.urls) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': WEBHOOK_CONTENT_TYPE, authorization: token },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) o.logger.warn({ url, status: res.status, event: event.event }, 'webhook refused');
      } catch (err) {
        o.logger.warn({ url, err: String(err), event: event.event }, 'webhook not delivered');
      }
    }
  };

  const event = (name: string, known: Known, room: string, participant?: ParticipantInfo) =>
    new WebhookEvent({
      event: name,
      id: `EV_${newSid('RM_').slice(3)}`,
      createdAt: BigInt(Math.floor(o.now() / 1000)),
      room: new RoomMessage({
        sid: known.sid,
        name: room,
        creationTime: BigInt(Math.floor(known.createdAt / 1000)),
        numParticipants: known.members.size,
      }),
      participant,
    });

  const info = (sid: string, identity: string, joinedAt: number, state: ParticipantInfo_State) =>
    new ParticipantInfo({
      sid,
      identity,
      state,
      joinedAt: BigInt(Math.floor(joinedAt / 1000)),
      joinedAtMs: BigInt(joinedAt),
    });

  const sync = async (room: string) => {
    const now = await o.members(room);
    let known = rooms.get(room);
    if (!known) {
      if (!now.length) return;
      known = { sid: newSid('RM_'), createdAt: o.now(), members: new Map() };
      rooms.set(room, known);
    }
    const present = new Set(now.map((m) => m.sid));
    for (const [sid, m] of [...known.members]) {
      if (present.has(sid)) continue;
      known.members.delete(sid);
      await send(
        event('participant_left', known, room, info(sid, m.identity, m.joinedAt, ParticipantInfo_State.DISCONNECTED)),
      );
    }
    for (const m of now) {
      if (known.members.has(m.sid)) continue;
      const joinedAt = o.now();
      known.members.set(m.sid, { identity: m.identity, joinedAt });
      await send(
        event('participant_joined', known, room, info(m.sid, m.identity, joinedAt, ParticipantInfo_State.ACTIVE)),
      );
    }
    if (!known.members.size) {
      rooms.delete(room);
      await send(event('room_finished', known, room));
    }
  };

  return {
    changed(room) {
      queue = queue.then(() =>
        sync(room).catch((err: unknown) => o.logger.error({ room, err: String(err) }, 'webhook failed')),
      );
    },
    idle: () => queue,
  };
}
