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
