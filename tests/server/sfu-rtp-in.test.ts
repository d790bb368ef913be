// The RTP header parser that replaces werift's in its receive path (server/sfu/media/rtp-in.ts): the same header
// object as werift's own RtpHeader.deSerialize for every shape a packet can take.
import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as werift from 'werift';
import { installRtpHeaderParser, parseRtpHeader, weriftRtpHeaderParse } from '../../server/sfu/media/rtp-in';

// werift's own, even when another test file in this process has installed the replacement.
const weriftParse = weriftRtpHeaderParse();

type Shape = 'none' | 'one-byte' | 'two-byte' | 'other';

/** A packet: random fields, `cc` CSRCs, extensions in `shape` (with RFC 8285 padding bytes), padding or not. */
function packet(shape: Shape, cc: number, padded: boolean, terminator = false): Buffer {
  const parts: Buffer[] = [];
  const head = Buffer.alloc(12);
  head[0] = 0x80 | (padded ? 0x20 : 0) | (shape === 'none' ? 0 : 0x10) | cc;
  head[1] = (randomInt(2) << 7) | randomInt(128);
  head.writeUInt16BE(randomInt(65536), 2);
  head.writeUInt32BE(randomInt(2 ** 32 - 1), 4);
  head.writeUInt32BE(randomInt(2 ** 32 - 1), 8);
  parts.push(head, randomBytes(cc * 4));
  if (shape !== 'none') {
    const body: Buffer[] = [];
    for (let i = 0, n = randomInt(1, 5); i < n; i++) {
      if (randomInt(3) === 0) body.push(Buffer.alloc(randomInt(1, 3))); // padding between elements
      if (shape === 'one-byte') {
        const len = randomInt(1, 17);
        body.push(Buffer.from([(randomInt(1, 15) << 4) | (len - 1)]), randomBytes(len));
      } else if (shape === 'two-byte') {
        const len = randomInt(0, 40);
        body.push(Buffer.from([randomInt(1, 256), len]), randomBytes(len));
      } else body.push(randomBytes(randomInt(1, 12)));
    }
    if (terminator) body.push(Buffer.from([0xf0]), randomBytes(3));
    let ext = Buffer.concat(body);
    ext = Buffer.concat([ext, Buffer.alloc((4 - (ext.length % 4)) % 4)]);
    const top = Buffer.alloc(4);
    top.writeUInt16BE(shape === 'one-byte' ? 0xbede : shape === 'two-byte' ? 0x1000 : 0x1234, 0);
    top.writeUInt16BE(ext.length / 4, 2);
    parts.push(top, ext);
  }
  parts.push(randomBytes(randomInt(0, 1200)));
  if (padded) {
    const n = randomInt(1, 256);
    const pad = Buffer.alloc(n);
    pad[n - 1] = n;
    parts.push(pad);
  }
  return Buffer.concat(parts);
}

const plain = (h: werift.RtpHeader) => ({ ...h });

describe('parseRtpHeader', () => {
  it('gives werift’s header for every shape: CSRCs, one- and two-byte and unknown extensions, padding', () => {
    expect(String(weriftParse)).toContain('getBit');
    let compared = 0;
    for (const shape of ['none', 'one-byte', 'two-byte', 'other'] as const)
      for (let cc = 0; cc <= 3; cc++)
        for (const padded of [false, true])
          for (let i = 0; i < 25; i++) {
            const p = packet(shape, cc, padded, shape === 'one-byte' && i % 5 === 0);
            expect(plain(parseRtpHeader(p))).toEqual(plain(weriftParse(p)));
            compared++;
          }
    expect(compared).toBe(800);
  });

  it('reads the fields a forwarded packet needs', () => {
    const p = packet('one-byte', 2, true);
    const h = parseRtpHeader(p);
    expect(h).toBeInstanceOf(werift.RtpHeader);
    expect(h.sequenceNumber).toBe(p.readUInt16BE(2));
    expect(h.ssrc).toBe(p.readUInt32BE(8));
    expect(h.csrc).toEqual([p.readUInt32BE(12), p.readUInt32BE(16)]);
    expect(h.paddingSize).toBe(p[p.length - 1]);
  });

  it('is what werift parses with once installed', () => {
    installRtpHeaderParser();
    expect(werift.RtpHeader.deSerialize).toBe(parseRtpHeader);
    const p = packet('one-byte', 0, false);
    const rtp = werift.RtpPacket.deSerialize(p);
    expect(plain(rtp.header)).toEqual(plain(weriftParse(p)));
    expect(rtp.payload.equals(p.subarray(rtp.header.payloadOffset))).toBe(true);
  });
});
