// Sign-ins that ended (sign-out, or a refresh token presented twice) while access tokens of theirs may still be
// alive: an access token is a signed JWT good for ACCESS_TOKEN_TTL, so without this list it would keep reading
// for up to that long after its sign-in ended. Checked on every authenticated request without a query: the
// list is in memory, holds each ended sign-in only for one token lifetime (no token of it can be valid after),
// is told by the other server processes over the realtime peer channel (ended-sessions.plugin.ts), and is read
// back from the database when this process starts or may have missed a notice (Redis reconnected).
import { sql } from 'kysely';
import type { Clock } from '../clock';
import type { Database } from '../db/database';

export interface EndedSessions {
  /** Whether access tokens of this sign-in are refused. */
  has(sessionId: string): boolean;
  /** The sign-in has ended here: refuse its tokens, and tell the other processes. */
  end(sessionId: string): void;
  /** Another process ended it. */
  endedElsewhere(sessionId: string): void;
  /** Every sign-in ended within the last token lifetime, from the database. */
  load(): Promise<void>;
  /** How the other processes are told (set once the realtime peers exist; none with one process). */
  publish: ((sessionId: string) => void) | null;
}

export function createEndedSessions(db: Database, clock: Clock, tokenTtlSec: number): EndedSessions {
  const ttlMs = tokenTtlSec * 1000;
  /** Session id → when its last possible token expires. */
  const until = new Map<string, number>();
  let nextPrune = 0;

  const add = (sessionId: string, at = clock.now()) => {
    until.set(sessionId, Math.max(until.get(sessionId) ?? 0, at + ttlMs));
    const now = clock.now();
    if (now < nextPrune) return;
    nextPrune = now + Math.min(ttlMs, 60_000);
    for (const [id, end] of until) if (end <= now) until.delete(id);
  };

  const ended: EndedSessions = {
    publish: null,
    has(sessionId) {
      const end = until.get(sessionId);
      if (end === undefined) return false;
      if (end > clock.now()) return true;
      until.delete(sessionId);
      return false;
    },
    end(sessionId) {
      add(sessionId);
      ended.publish?.(sessionId);
    },
    endedElsewhere(sessionId) {
      if (typeof sessionId === 'string' && sessionId) add(sessionId);
    },
    async load() {
      const since = new Date(clock.now() - ttlMs).toISOString();
      // A sign-in has ended when none of its refresh tokens is live; rotation revokes one at a time.
      const { rows } = await sql<{ family_id: string; revoked_at: string }>`
        SELECT family_id, max(revoked_at) AS revoked_at FROM refresh_tokens r
        WHERE revoked_at > ${since}
          AND NOT EXISTS (SELECT 1 FROM refresh_tokens l WHERE l.family_id = r.family_id AND l.revoked_at IS NULL)
        GROUP BY family_id`.execute(db);
      for (const r of rows) add(r.family_id, Date.parse(r.revoked_at));
    },
  };
  return ended;
}
