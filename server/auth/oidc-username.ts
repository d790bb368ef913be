// A new account's username from the provider's `preferred_username`: what the registration form would accept
// (letters, digits, «.», «-», «_», 3 to 32 characters), and free (a number added when taken).
import { LIMITS } from '../../src/contract/limits';
import type { Database } from '../db/database';

export function usernameBase(preferred: string | null): string {
  // An e-mail-like name keeps its local part; anything else the form refuses becomes «_».
  const local = (preferred ?? '').split('@')[0] ?? '';
  let base = local
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}_.-]+/gu, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '')
    .slice(0, LIMITS.usernameMax);
  if (base.length < LIMITS.usernameMin) base = `user${base ? `_${base}` : ''}`;
  return base;
}

/** The base, or the base with the smallest number from 2 up that no account (deleted ones too) has taken. */
export async function accountUsername(db: Database, preferred: string | null): Promise<string> {
  const base = usernameBase(preferred);
  const taken = new Set(
    (
      await db
        .selectFrom('users')
        .select('username_lower')
        .where('username_lower', 'like', `${base.toLowerCase().slice(0, LIMITS.usernameMax - 6)}%`)
        .execute()
    ).map((r) => r.username_lower),
  );
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : String(n);
    const name = `${base.slice(0, LIMITS.usernameMax - suffix.length)}${suffix}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}
