// Opaque refresh tokens: 256 random bits, stored as SHA-256, rotated on every use. Presenting a
// rotated token again means it leaked, so its whole family is revoked; so is a token whose sign-in has ended. A family (one sign-in) lives at most
// `maxAgeSec` from the sign-in however often it is rotated; then the user signs in again.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Clock, systemClock } from '../clock';
import type { Database } from '../db/database';

const sha256 = (t: string) => createHash('sha256').update(t).digest('base64url');

export interface RefreshLifetime {
  /** Lifetime of one token (it slides on every rotation). */
  ttlSec: number;
  /** Absolute lifetime of the family, from the sign-in. */
  maxAgeSec: number;
}

export interface IssuedRefreshToken {
  token: string;
  /** The family id, also the session id (`sid`) of the access tokens issued with it. */
  familyId: string;
}

export async function issueRefreshToken(
  db: Database,
  userId: string,
  ttlSec: number,
  family: { id: string; endsAt: number } | null = null,
  clock: Clock = systemClock,
): Promise<IssuedRefreshToken> {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  const familyId = family?.id ?? randomUUID();
  const expiresAt = Math.min(now + ttlSec * 1000, family?.endsAt ?? Number.POSITIVE_INFINITY);
  await db
    .insertInto('refresh_tokens')
    .values({
      id: randomUUID(),
      user_id: userId,
      family_id: familyId,
      token_hash: sha256(token),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(expiresAt).toISOString(),
      revoked_at: null,
    })
    .execute();
  return { token, familyId };
}

export type RotateResult =
  | { ok: true; userId: string; token: string; familyId: string }
  /**
   * `ended`: the sign-in this refused token belonged to, when the refusal ended it (reuse, end of its lifetime);
   * `reason`: why, for the server's log (a reuse is how a stolen token, or an answer that never arrived, shows).
   */
  | { ok: false; reason: RefusalReason; ended?: string };

export type RefusalReason = 'unknown' | 'reused' | 'expired' | 'signedOut' | 'lifetime' | 'concurrent';

export async function rotateRefreshToken(
  db: Database,
  presented: string,
  life: RefreshLifetime,
  clock: Clock = systemClock,
): Promise<RotateResult> {
  const hash = sha256(presented);
  // One transaction: the presented token's revocation, the check that its sign-in is live and the new token stand
  // or fall together, so a sign-out between them cannot leave a new token behind (docs/accounts.md).
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    if (!row) return { ok: false, reason: 'unknown' };
    const now = new Date(clock.now()).toISOString();
    if (row.revoked_at) {
      await revokeFamily(trx, row.family_id, clock);
      return { ok: false, reason: 'reused', ended: row.family_id };
    }
    if (row.expires_at <= now) return { ok: false, reason: 'expired' };
    // Touching the sign-in locks its row (PostgreSQL) until commit, and signIns.end deletes that row before it
    // revokes: an ending either waits for this rotation and then revokes the token made here, or came first and
    // the sign-in is gone. A token whose sign-in has ended is refused with its whole family.
    const signIn = await trx
      .updateTable('sign_ins')
      .set({ last_active_at: now })
      .where('id', '=', row.family_id)
      .where('user_id', '=', row.user_id)
      .returning('id')
      .executeTakeFirst();
    if (!signIn) {
      await revokeFamily(trx, row.family_id, clock);
      return { ok: false, reason: 'signedOut', ended: row.family_id };
    }
    // The family's first token marks the sign-in; rows are never deleted while the family is alive.
    const first = await trx
      .selectFrom('refresh_tokens')
      .select((eb) => eb.fn.min('created_at').as('started'))
      .where('family_id', '=', row.family_id)
      .executeTakeFirst();
    const endsAt = Date.parse(String(first?.started ?? row.created_at)) + life.maxAgeSec * 1000;
    if (endsAt <= clock.now()) {
      await revokeFamily(trx, row.family_id, clock);
      return { ok: false, reason: 'lifetime', ended: row.family_id };
    }
    // Conditional update: of two concurrent uses only one wins; the loser counts as reuse.
    const res = await trx
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('id', '=', row.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) {
      await revokeFamily(trx, row.family_id, clock);
      return { ok: false, reason: 'concurrent', ended: row.family_id };
    }
    const next = await issueRefreshToken(trx, row.user_id, life.ttlSec, { id: row.family_id, endsAt }, clock);
    return { ok: true, userId: row.user_id, token: next.token, familyId: next.familyId };
  });
}

/**
 * The presented token's family (session) id, or null for an unknown token. Signing out ends it with signIns.end,
 * which deletes the sign-in before revoking, in the order rotation takes them.
 */
export async function familyOf(db: Database, presented: string): Promise<string | null> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', sha256(presented))
    .executeTakeFirst();
  return row?.family_id ?? null;
}

/** Whether the session (family) still has a live token: false after logout, reuse or the end of its lifetime. */
export async function isSessionActive(db: Database, familyId: string, clock: Clock = systemClock): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date(clock.now()).toISOString())
    .executeTakeFirst();
  return Boolean(row);
}

/** Revokes every live refresh token of a family (the rest of ending a sign-in is signIns.end). */
export async function revokeFamily(db: Database, familyId: string, clock: Clock): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date(clock.now()).toISOString() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}
