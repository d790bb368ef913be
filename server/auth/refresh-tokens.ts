// Opaque refresh tokens: 256 random bits, stored as SHA-256, rotated on every use. Presenting a
// rotated token again means it leaked, so its whole family is revoked.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../db/database';

const sha256 = (t: string) => createHash('sha256').update(t).digest('base64url');

export async function issueRefreshToken(
  db: Database,
  userId: string,
  ttlSec: number,
  familyId: string = randomUUID(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db
    .insertInto('refresh_tokens')
    .values({
      id: randomUUID(),
      user_id: userId,
      family_id: familyId,
      token_hash: sha256(token),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + ttlSec * 1000).toISOString(),
      revoked_at: null,
    })
    .execute();
  return token;
}

export type RotateResult = { ok: true; userId: string; token: string } | { ok: false };

export async function rotateRefreshToken(db: Database, presented: string, ttlSec: number): Promise<RotateResult> {
  const row = await db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', sha256(presented)).executeTakeFirst();
  if (!row) return { ok: false };
  const now = new Date().toISOString();
  if (row.revoked_at) {
    await revokeFamily(db, row.family_id);
    return { ok: false };
  }
  if (row.expires_at <= now) return { ok: false };
  // Conditional update: of two concurrent uses only one wins; the loser counts as reuse.
  const res = await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('id', '=', row.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) {
    await revokeFamily(db, row.family_id);
    return { ok: false };
  }
  const token = await issueRefreshToken(db, row.user_id, ttlSec, row.family_id);
  return { ok: true, userId: row.user_id, token };
}

export async function revokeRefreshToken(db: Database, presented: string): Promise<void> {
  const row = await db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', sha256(presented)).executeTakeFirst();
  if (row) await revokeFamily(db, row.family_id);
}

async function revokeFamily(db: Database, familyId: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date().toISOString() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}
