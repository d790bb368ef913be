// Whether a conversation is a secret chat (docs/secret-chats.md). The flag is set when the conversation is made and
// never changes, so it is read once per conversation and remembered per database handle: the plaintext send path
// checks it without a query after the first.
import type { Database } from '../db/database';

/** Said by every plaintext route a secret chat refuses (its messages are encrypted on the devices). */
export const SECRET_IS_ENCRYPTED = 'В секретном чате сообщения шифруются на устройстве';
export const NOT_SECRET = 'Это не секретный чат';

const CACHE_SIZE = 50_000;
const caches = new WeakMap<Database, Map<string, boolean>>();

function cacheOf(db: Database): Map<string, boolean> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

/** Remembers a conversation's flag (its creation committed). */
export function rememberSecret(db: Database, conversationId: string, secret: boolean): void {
  const cache = cacheOf(db);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(conversationId, secret);
}

/** Whether the conversation is secret; false for one that does not exist (not remembered). */
export async function isSecret(db: Database, conversationId: string): Promise<boolean> {
  const known = cacheOf(db).get(conversationId);
  if (known !== undefined) return known;
  const row = await db.selectFrom('conversations').select('secret').where('id', '=', conversationId).executeTakeFirst();
  if (!row) return false;
  const secret = Number(row.secret) === 1;
  rememberSecret(db, conversationId, secret);
  return secret;
}

/** Which of these conversations are secret. */
export async function secretAmong(db: Database, conversationIds: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of new Set(conversationIds)) if (await isSecret(db, id)) out.push(id);
  return out;
}
