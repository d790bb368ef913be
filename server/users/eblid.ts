// EBLID: a four-digit public id, chosen at random among the free ones. The space holds 10,000 ids.
import { randomInt } from 'node:crypto';
import { EBLID_SPACE } from '../../src/contract/limits';
import type { Database } from '../db/database';

export const formatEblid = (n: number) => String(n).padStart(4, '0');

/** A random free EBLID, or null when all are taken. Callers retry on a unique violation (a race). */
export async function pickFreeEblid(db: Database): Promise<string | null> {
  // Random probes are cheap while the space is mostly free; past that, choose from the exact complement.
  for (let i = 0; i < 8; i++) {
    const candidate = formatEblid(randomInt(EBLID_SPACE));
    const taken = await db.selectFrom('users').select('id').where('eblid', '=', candidate).executeTakeFirst();
    if (!taken) return candidate;
  }
  const rows = await db.selectFrom('users').select('eblid').execute();
  const used = new Set(rows.map((r) => r.eblid));
  const free: string[] = [];
  for (let n = 0; n < EBLID_SPACE; n++) if (!used.has(formatEblid(n))) free.push(formatEblid(n));
  return free.length ? free[randomInt(free.length)] : null;
}
