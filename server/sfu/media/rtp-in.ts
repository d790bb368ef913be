// Parsing the RTP header of every packet a publisher sends, in werift's own receive path. werift's
// RtpHeader.deSerialize reads each bit field through a string of binary digits (getBit: toString(2), split, join,
// parseInt) and grows the extension list by copying it: the largest single cost of receiving media in the profile of
// a 10-person call. This one reads the same fields with bit operations and builds the same object; installed once, it
// replaces werift's for every RTP packet werift parses (SRTP's decrypt and the receive path call it through the
// class). tests/server/sfu-rtp-in.test.ts compares the two on generated packets of every header shape.
import * as werift from 'werift';

const ONE_BYTE = 0xbede;
const TWO_BYTE = 0x1000;

type Extension = { id: number; payload: Buffer };

/** werift's RtpHeader.deSerialize, field for field. */
export function parseRtpHeader(raw: Buffer): werift.RtpHeader {
  const h = new werift.RtpHeader();
  const first = raw[0] as number;
  h.version = first >>> 6;
  h.padding = (first & 0x20) !== 0;
  h.extension = (first & 0x10) !== 0;
  const cc = first & 0x0f;
  h.csrcLength = cc;
  const second = raw[1] as number;
  h.marker = (second & 0x80) !== 0;
  h.payloadType = second & 0x7f;
  h.sequenceNumber = raw.readUInt16BE(2);
  h.timestamp = raw.readUInt32BE(4);
  h.ssrc = raw.readUInt32BE(8);
  const csrc: number[] = new Array(cc);
  for (let i = 0; i < cc; i++) csrc[i] = raw.readUInt32BE(12 + i * 4);
  h.csrc = csrc;
  let offset = 12 + cc * 4;
  if (h.extension) {
    const profile = raw.readUInt16BE(offset);
    h.extensionProfile = profile as werift.RtpHeader['extensionProfile'];
    const length = raw.readUInt16BE(offset + 2) * 4;
    h.extensionLength = length;
    offset += 4;
    const extensions: Extension[] = [];
    const end = offset + length;
    if (profile === ONE_BYTE) {
      while (offset < end) {
        const b = raw[offset] as number;
        if (b === 0) {
          offset++;
          continue;
        }
        const id = b >> 4;
        const len = (b & 0x0f) + 1;
        offset++;
        if (id === 15) break;
        extensions.push({ id, payload: raw.subarray(offset, offset + len) });
        offset += len;
      }
    } else if (profile === TWO_BYTE) {
      while (offset < end) {
        if (raw[offset] === 0) {
          offset++;
          continue;
        }
        const id = raw[offset] as number;
        const len = raw[offset + 1] as number;
        offset += 2;
        extensions.push({ id, payload: raw.subarray(offset, offset + len) });
        offset += len;
      }
    } else {
      const payload = raw.subarray(offset, end);
      extensions.push({ id: 0, payload });
      offset += payload.length;
    }
    h.extensions = extensions;
  }
  h.payloadOffset = offset;
  if (h.padding) h.paddingSize = raw[raw.length - 1] as number;
  return h;
}

type Parse = (raw: Buffer) => werift.RtpHeader;
/** Where werift's own parser is kept once replaced: on werift's class, which every copy of this module shares. */
const ORIGINAL = Symbol.for('beseda.sfu.weriftRtpHeaderParse');
const holder = werift.RtpHeader as unknown as { [ORIGINAL]?: Parse };

/** werift's own parser, installed or not (the tests compare against it). */
export function weriftRtpHeaderParse(): Parse {
  return holder[ORIGINAL] ?? werift.RtpHeader.deSerialize;
}

/** Puts parseRtpHeader in place of werift's, once per process (each media worker calls it too). */
export function installRtpHeaderParser(): void {
  holder[ORIGINAL] ??= werift.RtpHeader.deSerialize;
  werift.RtpHeader.deSerialize = parseRtpHeader;
}
