// Message ids are UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. Ids that grow with
// time are appended to the right edge of the unique index instead of landing on a random page of it: with a
// random (v4) id every send read and rewrote a cold index page once the index outgrew SQLite's page cache
// (about one extra page read and one extra WAL frame per send). Ordering still comes from `seq`; the id only
// has to be unique and unguessable, and the time it reveals is the message's createdAt, which members see.
import { randomFillSync } from 'node:crypto';

const POOL_IDS = 256;
const pool = Buffer.alloc(16 * POOL_IDS);
let next = POOL_IDS;

const hex = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A UUIDv7 for `ms` (default: now). */
export function newMessageId(ms: number = Date.now()): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const b = pool.subarray(next * 16, next * 16 + 16);
  next += 1;
  // 48-bit big-endian timestamp (the random bytes there are overwritten).
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | ((b[6] as number) & 0x0f); // version 7
  b[8] = 0x80 | ((b[8] as number) & 0x3f); // variant 10
  let s = '';
  for (let i = 0; i < 16; i++) {
    s += hex[b[i] as number];
    if (i === 3 || i === 5 || i === 7 || i === 9) s += '-';
  }
  return s;
}
