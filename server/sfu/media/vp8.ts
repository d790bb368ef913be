// Reads just enough of an RTP VP8 payload (RFC 7741) to tell whether it starts a keyframe, so the forwarder can
// switch simulcast layers on a picture the subscriber can decode.
export function isVp8KeyframeStart(payload: Buffer): boolean {
  if (payload.length < 2) return false;
  const b0 = payload[0] as number;
  const startOfPartition = (b0 & 0x10) !== 0;
  const partitionId = b0 & 0x0f;
  if (!startOfPartition || partitionId !== 0) return false;
  let offset = 1;
  if (b0 & 0x80) {
    const x = payload[offset++] as number;
    if (x & 0x80) offset += ((payload[offset] as number) & 0x80) !== 0 ? 2 : 1; // picture id, 7 or 15 bits
    if (x & 0x40) offset += 1; // TL0PICIDX
    if (x & 0x30) offset += 1; // TID / KEYIDX
  }
  if (offset >= payload.length) return false;
  // In the VP8 frame header the P bit is 0 for a keyframe.
  return ((payload[offset] as number) & 0x01) === 0;
}

/** The fields of a VP8 payload descriptor (RFC 7741, section 4.2) a receiver orders pictures by. */
export interface Vp8Numbers {
  /** Descriptor length in bytes (the payload header before the VP8 frame data). */
  length: number;
  /** Picture ID and its width in bits (7 or 15); bits = 0 when the descriptor carries none. */
  pictureId: number;
  pictureIdBits: 0 | 7 | 15;
  /** TL0PICIDX and KEYIDX; -1 when absent. */
  tl0PicIdx: number;
  keyIdx: number;
}

/** Reads the descriptor's numbering; false when the payload is too short to hold what it announces. */
export function readVp8Numbers(payload: Buffer, out: Vp8Numbers): boolean {
  out.pictureIdBits = 0;
  out.tl0PicIdx = -1;
  out.keyIdx = -1;
  if (payload.length < 1) return false;
  let offset = 1;
  if ((payload[0] as number) & 0x80) {
    if (payload.length < 2) return false;
    const x = payload[offset++] as number;
    if (x & 0x80) {
      const first = payload[offset] as number | undefined;
      if (first === undefined) return false;
      if (first & 0x80) {
        if (offset + 1 >= payload.length) return false;
        out.pictureId = ((first & 0x7f) << 8) | (payload[offset + 1] as number);
        out.pictureIdBits = 15;
        offset += 2;
      } else {
        out.pictureId = first;
        out.pictureIdBits = 7;
        offset += 1;
      }
    }
    if (x & 0x40) {
      if (offset >= payload.length) return false;
      out.tl0PicIdx = payload[offset++] as number;
    }
    if (x & 0x30) {
      if (offset >= payload.length) return false;
      if (x & 0x10) out.keyIdx = (payload[offset] as number) & 0x1f;
      offset += 1;
    }
  }
  out.length = offset;
  return true;
}

const mod = (n: number, m: number): number => ((n % m) + m) % m;

/**
 * Picture numbering per subscriber across simulcast layer switches (what LiveKit's VP8 munger does). Each layer
 * numbers its pictures on its own, and Chromium gives the layers' pictures of one captured frame the same picture
 * ID. A receiver treats a picture whose ID it has already seen as a duplicate: after the switch from one layer
 * (whose keyframe for frame N it got) to another (whose keyframe for frame N follows), it dropped the new layer's
 * keyframe and decoded the new layer's frames against the old layer's picture (wrong size, corrupt, or stalled
 * until its next keyframe request). Renumbered, the new layer's pictures follow the last one sent.
 */
export class Vp8Renumbering {
  private pictureIdShift = 0;
  private tl0Shift = 0;
  private keyIdxShift = 0;
  /** The last (renumbered) values sent, -1 before any. */
  private lastPictureId = -1;
  private lastTl0 = -1;
  private lastKeyIdx = -1;
  private readonly numbers: Vp8Numbers = { length: 0, pictureId: 0, pictureIdBits: 0, tl0PicIdx: -1, keyIdx: -1 };
  private readonly scratch = Buffer.alloc(6);

  /** The first packet of a layer switched to (its keyframe): its pictures continue after the last one sent. */
  restart(payload: Buffer): void {
    const n = this.numbers;
    if (!readVp8Numbers(payload, n)) return;
    if (n.pictureIdBits && this.lastPictureId >= 0)
      this.pictureIdShift = mod(this.lastPictureId + 1 - n.pictureId, 2 ** n.pictureIdBits);
    if (n.tl0PicIdx >= 0 && this.lastTl0 >= 0) this.tl0Shift = mod(this.lastTl0 + 1 - n.tl0PicIdx, 256);
    if (n.keyIdx >= 0 && this.lastKeyIdx >= 0) this.keyIdxShift = mod(this.lastKeyIdx + 1 - n.keyIdx, 32);
  }

  /**
   * The descriptor to send in place of the packet's own (its first bytes), or null when it stays as it is. The
   * returned buffer is reused by the next call.
   */
  rewrite(payload: Buffer): Buffer | null {
    const n = this.numbers;
    if (!readVp8Numbers(payload, n)) return null;
    let changed = false;
    let offset = 2;
    const out = this.scratch;
    payload.copy(out, 0, 0, n.length);
    if (n.pictureIdBits) {
      const m = 2 ** n.pictureIdBits;
      const id = mod(n.pictureId + this.pictureIdShift, m);
      if (this.lastPictureId < 0 || mod(id - this.lastPictureId, m) < m / 2) this.lastPictureId = id;
      if (id !== n.pictureId) {
        changed = true;
        if (n.pictureIdBits === 15) {
          out[offset] = 0x80 | (id >> 8);
          out[offset + 1] = id & 0xff;
        } else out[offset] = id;
      }
      offset += n.pictureIdBits === 15 ? 2 : 1;
    }
    if (n.tl0PicIdx >= 0) {
      const tl0 = (n.tl0PicIdx + this.tl0Shift) & 0xff;
      if (this.lastTl0 < 0 || mod(tl0 - this.lastTl0, 256) < 128) this.lastTl0 = tl0;
      if (tl0 !== n.tl0PicIdx) {
        changed = true;
        out[offset] = tl0;
      }
      offset += 1;
    }
    if (n.keyIdx >= 0) {
      const keyIdx = (n.keyIdx + this.keyIdxShift) & 0x1f;
      if (this.lastKeyIdx < 0 || mod(keyIdx - this.lastKeyIdx, 32) < 16) this.lastKeyIdx = keyIdx;
      if (keyIdx !== n.keyIdx) {
        changed = true;
        out[offset] = ((out[offset] as number) & 0xe0) | keyIdx;
      }
    }
    return changed ? out.subarray(0, n.length) : null;
  }
}
