// HMAC-SHA1 (RFC 2104) for SRTP's per-packet tag, as two one-shot node:crypto hashes over buffers prepared once
// per key: createHmac makes a stream object with a native handle per packet (and prepares the key each time),
// which the garbage collector then has to finalize. The digests come back as latin1 ('binary') strings written
// into the caller's buffer: a Buffer result would be a new ArrayBuffer per packet, the costliest garbage here.
import { hash, timingSafeEqual } from 'node:crypto';

const BLOCK = 64;
const DIGEST = 20;
/** Room for one packet after the inner pad; larger input takes a buffer of its own. */
const SCRATCH = 2048;

export class HmacSha1 {
  /** K ⊕ ipad, then the message; reused, so a call must finish before the next (all synchronous). */
  private inner = Buffer.alloc(BLOCK + SCRATCH);
  /** K ⊕ opad, then the inner digest. */
  private readonly outer = Buffer.alloc(BLOCK + DIGEST);

  /** `tagLength`: the profile's tag (SRTP_AES128_CM_HMAC_SHA1_80: 10 bytes); `verify` accepts no other length. */
  constructor(
    key: Buffer,
    private readonly tagLength = DIGEST,
  ) {
    if (tagLength < 1 || tagLength > DIGEST) throw new RangeError(`HMAC-SHA1 tag of ${tagLength} bytes`);
    // Keys longer than a block are hashed first (SRTP's are 20 bytes).
    const k = key.length > BLOCK ? hash('sha1', key, 'buffer') : key;
    this.inner.fill(0x36, 0, BLOCK);
    this.outer.fill(0x5c, 0, BLOCK);
    for (let i = 0; i < k.length; i++) {
      this.inner[i] = (this.inner[i] as number) ^ (k[i] as number);
      this.outer[i] = (this.outer[i] as number) ^ (k[i] as number);
    }
  }

  /** Scratch for a tag to compare. */
  private readonly check = Buffer.alloc(DIGEST);

  /**
   * Writes the first `length` bytes of the HMAC of `data` (followed by the 32-bit big-endian `roc` when not null:
   * SRTP's authenticated portion) into `out` at `offset`.
   */
  write(data: Buffer, roc: number | null, out: Buffer, offset: number, length: number): void {
    out.write(this.digest(data, roc), offset, length, 'latin1');
  }

  /**
   * Whether `tag` is the profile's tag of `data` (and `roc`), compared in constant time. A tag of any other length
   * is refused: a shorter one would be a shorter (or, empty, no) check.
   */
  verify(data: Buffer, roc: number | null, tag: Buffer): boolean {
    if (tag.length !== this.tagLength) return false;
    this.check.write(this.digest(data, roc), 0, DIGEST, 'latin1');
    return timingSafeEqual(this.check.subarray(0, this.tagLength), tag);
  }

  private digest(data: Buffer, roc: number | null): string {
    const length = data.length + (roc === null ? 0 : 4);
    if (length > this.inner.length - BLOCK) {
      const grown = Buffer.alloc(BLOCK + length);
      this.inner.copy(grown, 0, 0, BLOCK);
      this.inner = grown;
    }
    const inner = this.inner;
    data.copy(inner, BLOCK);
    if (roc !== null) inner.writeUInt32BE(roc >>> 0, BLOCK + data.length);
    this.outer.write(hash('sha1', inner.subarray(0, BLOCK + length), 'binary'), BLOCK, DIGEST, 'latin1');
    return hash('sha1', this.outer, 'binary');
  }
}
