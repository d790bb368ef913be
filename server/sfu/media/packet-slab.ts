// Buffers for outgoing packets carved from large shared chunks: Buffer.allocUnsafe's 8 KiB pool gives a new
// ArrayBuffer every few video packets, and each one is work for the garbage collector's background threads.
// A packet's buffer is written once and then only read (by the socket), so slices of a chunk never overlap in use.
const CHUNK_BYTES = 256 * 1024;
/** Slices start on 8-byte boundaries, so the SRTP keystream XOR can work in 32-bit words. */
const ALIGN = 8;

let chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
let used = 0;

/** An uninitialised buffer of `length` bytes for one outgoing packet. */
export function packetBuffer(length: number): Buffer {
  if (length > CHUNK_BYTES / 4) return Buffer.allocUnsafe(length);
  if (used + length > CHUNK_BYTES) {
    chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
    used = 0;
  }
  const out = chunk.subarray(used, used + length);
  used = (used + length + ALIGN - 1) & ~(ALIGN - 1);
  return out;
}
