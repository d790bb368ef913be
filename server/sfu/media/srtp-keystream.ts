// AES_CM keystream (RFC 3711 4.1.1) for SRTP packets, made for a window of consecutive packet indices of an SSRC
// at once: one AES-ECB call over all their counter blocks instead of a new node:crypto cipher per packet (object,
// key schedule and output buffer each time, the largest per-packet cost of forwarding). Packet indices of a stream
// go up one by one, so a window serves the next packets; retransmissions of older ones refill it.
import { type Cipheriv, createCipheriv } from 'node:crypto';

/** Packets per window: one AES call per this many packets of a stream. */
const WINDOW_PACKETS = 32;
/** Blocks per packet are rounded up to this, so a slightly larger packet does not refill at once. */
const BLOCK_STEP = 8;
/** Larger payloads (not seen with RTP over UDP) take a cipher of their own. */
export const MAX_WINDOW_BLOCKS = 128;
/** Streams remembered per direction; more (SSRC churn) starts over. */
const MAX_STREAMS = 64;

interface Window {
  first: number;
  blocks: number;
  keystream: Buffer;
}

export class CmKeystream {
  private readonly ecb: Cipheriv;
  private readonly windows = new Map<number, Window>();
  /** Counter blocks of the window being made, kept between fills (external memory also drives the GC). */
  private counters = Buffer.alloc(0);

  /** `salt`: the 14-byte session salt; `key`: the session key. */
  constructor(
    private readonly key: Buffer,
    private readonly salt: Buffer,
  ) {
    this.ecb = createCipheriv('aes-128-ecb', key, null);
    this.ecb.setAutoPadding(false);
  }

  /**
   * XORs the keystream of packet (ssrc, roc, seq) with `src` into `dst` from `dstOffset` (encrypts or decrypts).
   * `iv` is the packet's counter block 0, for payloads too large for a window.
   */
  apply(ssrc: number, roc: number, seq: number, src: Buffer, dst: Buffer, dstOffset: number, iv: Buffer): void {
    const length = src.length;
    const need = (length + 15) >>> 4;
    if (need > MAX_WINDOW_BLOCKS) {
      createCipheriv('aes-128-ctr', this.key, iv).update(src).copy(dst, dstOffset);
      return;
    }
    const index = (roc >>> 0) * 0x10000 + seq;
    let w = this.windows.get(ssrc);
    if (!w || index < w.first || index >= w.first + WINDOW_PACKETS || need > w.blocks) {
      w = this.fill(ssrc, index, Math.max(need, w?.blocks ?? 0));
    }
    xorInto(src, w.keystream, (index - w.first) * w.blocks * 16, dst, dstOffset);
  }

  private fill(ssrc: number, first: number, need: number): Window {
    const blocks = Math.min(MAX_WINDOW_BLOCKS, Math.ceil(need / BLOCK_STEP) * BLOCK_STEP);
    const rowBytes = blocks * 16;
    if (this.counters.length < WINDOW_PACKETS * rowBytes)
      this.counters = Buffer.allocUnsafeSlow(WINDOW_PACKETS * rowBytes);
    const counters = this.counters.subarray(0, WINDOW_PACKETS * rowBytes);
    const salt = this.salt;
    // Row 0: every counter block of the first packet; bytes 14-15 are the block number (the salt has 14 bytes).
    const s0 = salt[0] as number;
    const s1 = salt[1] as number;
    const s2 = salt[2] as number;
    const s3 = salt[3] as number;
    const s4 = (salt[4] as number) ^ (ssrc >>> 24);
    const s5 = (salt[5] as number) ^ ((ssrc >>> 16) & 0xff);
    const s6 = (salt[6] as number) ^ ((ssrc >>> 8) & 0xff);
    const s7 = (salt[7] as number) ^ (ssrc & 0xff);
    for (let j = 0; j < blocks; j++) {
      const o = j * 16;
      counters[o] = s0;
      counters[o + 1] = s1;
      counters[o + 2] = s2;
      counters[o + 3] = s3;
      counters[o + 4] = s4;
      counters[o + 5] = s5;
      counters[o + 6] = s6;
      counters[o + 7] = s7;
      counters[o + 14] = j >>> 8;
      counters[o + 15] = j & 0xff;
    }
    for (let p = 0; p < WINDOW_PACKETS; p++) {
      const row = p * rowBytes;
      if (p > 0) counters.copy(counters, row, 0, rowBytes);
      const index = first + p;
      const roc = Math.floor(index / 0x10000) >>> 0;
      const seq = index & 0xffff;
      const r0 = (salt[8] as number) ^ (roc >>> 24);
      const r1 = (salt[9] as number) ^ ((roc >>> 16) & 0xff);
      const r2 = (salt[10] as number) ^ ((roc >>> 8) & 0xff);
      const r3 = (salt[11] as number) ^ (roc & 0xff);
      const q0 = (salt[12] as number) ^ (seq >>> 8);
      const q1 = (salt[13] as number) ^ (seq & 0xff);
      for (let o = row + 8, end = row + rowBytes; o < end; o += 16) {
        counters[o] = r0;
        counters[o + 1] = r1;
        counters[o + 2] = r2;
        counters[o + 3] = r3;
        counters[o + 4] = q0;
        counters[o + 5] = q1;
      }
    }
    if (this.windows.size >= MAX_STREAMS && !this.windows.has(ssrc)) this.windows.clear();
    const w: Window = { first, blocks, keystream: this.ecb.update(counters) };
    this.windows.set(ssrc, w);
    return w;
  }
}

/** dst[dstOffset + i] = src[i] ^ ks[ksOffset + i], four bytes at a time when all three are 4-byte aligned (usual). */
function xorInto(src: Buffer, ks: Buffer, ksOffset: number, dst: Buffer, dstOffset: number): void {
  const n = src.length;
  const a = src.byteOffset;
  const b = ks.byteOffset + ksOffset;
  const c = dst.byteOffset + dstOffset;
  let i = 0;
  if (((a | b | c) & 3) === 0 && n >= 32) {
    const words = n >>> 2;
    const s32 = new Int32Array(src.buffer, a, words);
    const k32 = new Int32Array(ks.buffer, b, words);
    const d32 = new Int32Array(dst.buffer, c, words);
    for (let w = 0; w < words; w++) d32[w] = (s32[w] as number) ^ (k32[w] as number);
    i = words << 2;
  }
  for (; i < n; i++) dst[dstOffset + i] = (src[i] as number) ^ (ks[ksOffset + i] as number);
}
