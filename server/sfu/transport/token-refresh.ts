// Fresh access tokens for connected participants, as LiveKit's server hands them out: a signal message
// (SignalResponse.refreshToken) the client keeps and presents when it reconnects or resumes. Tokens can then be
// short-lived (minutes) while a call lasts hours. The new token carries the participant's current name,
// metadata and attributes and the grants it joined with.
import { SignJWT } from 'jose';
import type { Participant } from '../session/participant';

export interface TokenRefreshOptions {
  apiKey: string;
  apiSecret: string;
  /** Seconds between refreshes for one participant. */
  interval: number;
  /** Lifetime of each refreshed token, seconds. */
  ttl: number;
  /** The time refreshed tokens are issued at (ms since the epoch). */
  now: () => number;
}

export function tokenRefresher(o: TokenRefreshOptions) {
  const secret = new TextEncoder().encode(o.apiSecret);
  const lastSent = new WeakMap<Participant, number>();

  const sign = (p: Participant): Promise<string> => {
    const now = Math.floor(o.now() / 1000);
    const g = p.grants;
    return new SignJWT({
      name: p.name,
      metadata: p.metadata,
      attributes: p.attributes,
      video: {
        room: g.room,
        roomJoin: true,
        canPublish: g.canPublish,
        canSubscribe: g.canSubscribe,
        canPublishData: g.canPublishData,
        canUpdateOwnMetadata: g.canUpdateMetadata,
        hidden: g.hidden,
      },
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(o.apiKey)
      .setSubject(p.identity)
      .setNotBefore(now)
      .setExpirationTime(now + o.ttl)
      .sign(secret);
  };

  return {
    /** Sends a fresh token to each connected participant whose last one is `interval` old (from joining). */
    async refresh(participants: Iterable<Participant>): Promise<void> {
      const due = Date.now() - o.interval * 1000;
      for (const p of participants) {
        if (!p.connected) continue;
        const last = lastSent.get(p) ?? p.joinedAt;
        if (last > due) continue;
        lastSent.set(p, Date.now());
        p.send({ case: 'refreshToken', value: await sign(p) });
      }
    },
  };
}
