// The SFU's own SRTP/SRTCP (server/sfu/media/srtp-fast.ts) against werift's reference implementation, for both
// profiles: byte-identical output with the same keys and state, each side unprotecting the other's packets,
// the rollover counter across a sequence number wrap, and tampered packets refused without moving the state.
// The AES_CM keystream made ahead per window (server/sfu/media/srtp-keystream.ts) against node:crypto's AES-CTR.
import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as werift from 'werift';
import { FastSrtp } from '../../server/sfu/media/srtp-fast';
import { CmKeystream, MAX_WINDOW_BLOCKS } from '../../server/sfu/media/srtp-keystream';

type Session = werift.SrtpSession & { localContext: unknown; remoteContext: unknown };

function keysFor(profile: number) {
  const saltLength = profile === werift.ProtectionProfileAeadAes128Gcm ? 12 : 14;
  return {
    localMasterKey: randomBytes(16),
    localMasterSalt: randomBytes(saltLength),
    remoteMasterKey: randomBytes(16),
    remoteMasterSalt: randomBytes(saltLength),
  };
}

/** Sessions with the same keys: werift's alone, one running FastSrtp, and the peer's (keys swapped). */
function sessions(profile: number) {
  const keys = keysFor(profile);
  const peerKeys = {
    localMasterKey: keys.remoteMasterKey,
    localMasterSalt: keys.remoteMasterSalt,
    remoteMasterKey: keys.localMasterKey,
    remoteMasterSalt: keys.localMasterSalt,
  };
  const reference = {
    srtp: new werift.SrtpSession({ keys, profile }),
    srtcp: new werift.SrtcpSession({ keys, profile }),
  };
  const fastSrtp = new werift.SrtpSession({ keys, profile });
  const fastSrtcp = new werift.SrtcpSession({ keys, profile });
  const fast = new FastSrtp(fastSrtp as unknown as never, fastSrtcp as unknown as never);
  fast.install(fastSrtp as unknown as never);
  const peer = {
    srtp: new werift.SrtpSession({ keys: peerKeys, profile }),
    srtcp: new werift.SrtcpSession({ keys: peerKeys, profile }),
  };
  return { reference, fast: { srtp: fastSrtp as Session, srtcp: fastSrtcp, engine: fast }, peer };
}

const header = (sequenceNumber: number, extensions = true) =>
  new werift.RtpHeader({
    payloadType: 96,
    marker: sequenceNumber % 3 === 0,
    sequenceNumber,
    timestamp: 3_000_000_000 + sequenceNumber * 90,
    ssrc: 0x1234abcd,
    extensions: extensions
      ? [
          { id: 1, payload: Buffer.from('0') },
          { id: 3, payload: Buffer.from([1, 2, 3]) },
        ]
      : [],
  });

/** Sequence numbers through a wrap: the rollover counter must become 1 on both sides. */
const SEQS = [65530, 65531, 65532, 65533, 65534, 65535, 0, 1, 2, 3, 65535, 4, 5];

const PROFILES = [
  ['AES_CM_128_HMAC_SHA1_80', werift.ProtectionProfileAes128CmHmacSha1_80],
  ['AEAD_AES_128_GCM', werift.ProtectionProfileAeadAes128Gcm],
] as const;

describe.each(PROFILES)('FastSrtp %s', (_name, profile) => {
  it('protects RTP exactly as werift does, across a sequence number wrap, and the peer unprotects it', () => {
    const { reference, fast, peer } = sessions(profile);
    for (const [i, seq] of SEQS.entries()) {
      const payload = randomBytes(1 + ((i * 97) % 1100));
      const expected = reference.srtp.encrypt(payload, header(seq, i % 2 === 0));
      const actual = fast.srtp.encrypt(payload, header(seq, i % 2 === 0));
      expect(actual.equals(expected)).toBe(true);
      const rtp = werift.RtpPacket.deSerialize(peer.srtp.decrypt(actual));
      expect(rtp.header.sequenceNumber).toBe(seq);
      expect(rtp.payload.equals(payload)).toBe(true);
    }
  });

  it('protects in place into a caller buffer (the forwarding path) with the same bytes', () => {
    const { reference, fast } = sessions(profile);
    for (const seq of SEQS) {
      const payload = randomBytes(300);
      const h = header(seq);
      const expected = reference.srtp.encrypt(payload, h);
      const headerBytes = h.serialize(h.serializeSize);
      const out = Buffer.alloc(headerBytes.length + payload.length + fast.engine.rtpOverhead);
      headerBytes.copy(out);
      const length = fast.engine.protectRtp(out, headerBytes.length, payload, h.ssrc, seq);
      expect(out.subarray(0, length).equals(expected)).toBe(true);
    }
  });

  it('unprotects what the peer protects, across a wrap, as werift does', () => {
    const { reference, fast, peer } = sessions(profile);
    for (const [i, seq] of SEQS.entries()) {
      const payload = randomBytes(20 + i * 50);
      const packet = peer.srtp.encrypt(payload, header(seq, i % 2 === 1));
      const ours = fast.srtp.decrypt(packet);
      expect(ours.equals(reference.srtp.decrypt(packet))).toBe(true);
      expect(werift.RtpPacket.deSerialize(ours).payload.equals(payload)).toBe(true);
    }
  });

  it('refuses a tampered SRTP packet and keeps the rollover state', () => {
    const { fast, peer } = sessions(profile);
    for (const seq of [65534, 65535]) fast.srtp.decrypt(peer.srtp.encrypt(randomBytes(100), header(seq)));
    const good = peer.srtp.encrypt(randomBytes(100), header(0));
    const bad = Buffer.from(good);
    bad[bad.length - 20] = (bad[bad.length - 20] as number) ^ 1;
    expect(() => fast.srtp.decrypt(bad)).toThrow(werift.SrtpAuthenticationError);
    expect(() => fast.srtp.decrypt(good.subarray(0, 11))).toThrow(werift.SrtpAuthenticationError);
    // Still before the wrap: the genuine packet decrypts with ROC 1.
    const rtp = werift.RtpPacket.deSerialize(fast.srtp.decrypt(good));
    expect(rtp.header.sequenceNumber).toBe(0);
  });

  it('protects and unprotects SRTCP like werift, and refuses a tampered one', () => {
    const { reference, fast, peer } = sessions(profile);
    const rr = new werift.RtcpRrPacket({
      ssrc: 0x01020304,
      reports: [
        new werift.RtcpReceiverInfo({
          ssrc: 0x1234abcd,
          fractionLost: 3,
          packetsLost: 10,
          highestSequence: 70000,
          jitter: 5,
          lsr: 1,
          dlsr: 2,
        }),
      ],
    }).serialize();
    for (let i = 0; i < 3; i++) {
      const expected = reference.srtcp.encrypt(rr);
      const actual = fast.srtcp.encrypt(rr);
      expect(actual.equals(expected)).toBe(true);
      expect(peer.srtcp.decrypt(actual).equals(rr)).toBe(true);
      const fromPeer = peer.srtcp.encrypt(rr);
      expect(fast.srtcp.decrypt(fromPeer).equals(rr)).toBe(true);
      expect(fast.srtcp.decrypt(fromPeer).equals(reference.srtcp.decrypt(fromPeer))).toBe(true);
      const bad = Buffer.from(fromPeer);
      bad[10] = (bad[10] as number) ^ 0x80;
      expect(() => fast.srtcp.decrypt(bad)).toThrow(werift.SrtpAuthenticationError);
    }
  });
});

describe.each(PROFILES)('FastSrtp %s SRTCP', (_name, profile) => {
  it('matches werift with an SRTCP index beyond 16 bits', () => {
    const { reference, fast, peer } = sessions(profile);
    const sr = new werift.RtcpSrPacket({
      ssrc: 0x0a0b0c0d,
      senderInfo: new werift.RtcpSenderInfo({
        ntpTimestamp: 1n << 40n,
        rtpTimestamp: 5,
        packetCount: 6,
        octetCount: 7,
      }),
    }).serialize();
    type Contexts = { localContext: { getSrtcpSsrcState(ssrc: number): { srtcpIndex: number } } };
    for (const s of [reference.srtcp, fast.srtcp, peer.srtcp])
      (s as unknown as Contexts).localContext.getSrtcpSsrcState(0x0a0b0c0d).srtcpIndex = 0x1fffe;
    for (let i = 0; i < 3; i++) {
      const actual = fast.srtcp.encrypt(sr);
      expect(actual.equals(reference.srtcp.encrypt(sr))).toBe(true);
      expect(peer.srtcp.decrypt(actual).equals(sr)).toBe(true);
      expect(fast.srtcp.decrypt(peer.srtcp.encrypt(sr)).equals(sr)).toBe(true);
    }
  });
});

describe('CmKeystream', () => {
  /** RFC 3711 4.1.1 counter block 0 of a packet. */
  function iv(salt: Buffer, ssrc: number, roc: number, seq: number): Buffer {
    const v = Buffer.alloc(16);
    v.writeUInt32BE(ssrc, 4);
    v.writeUInt32BE(roc, 8);
    v.writeUInt16BE(seq, 12);
    for (let i = 0; i < 14; i++) v[i] = (v[i] as number) ^ (salt[i] as number);
    return v;
  }

  it('matches AES-CTR per packet: in order, across a wrap, growing sizes, going back, several SSRCs, huge payloads', () => {
    const key = randomBytes(16);
    const salt = randomBytes(14);
    const ks = new CmKeystream(key, salt);
    const packets: Array<[number, number, number, number]> = [];
    for (let i = 0; i < 100; i++) packets.push([0xaaaa0001, 0, 65500 + i, 100 + i * 10]); // wraps at i = 36 (ROC 1 below)
    packets.push([0xaaaa0001, 0, 65510, 300]); // a retransmission from long ago
    packets.push([0xbbbb0002, 7, 12, 50], [0xbbbb0002, 7, 13, MAX_WINDOW_BLOCKS * 16 + 1], [0xbbbb0002, 7, 14, 16]);
    for (const [ssrc, roc0, seq0, length] of packets) {
      const roc = roc0 + (seq0 > 0xffff ? 1 : 0);
      const seq = seq0 & 0xffff;
      // Aligned (4-byte steps) and unaligned source and destination.
      for (const [srcOffset, dstOffset] of [
        [0, 0],
        [4, 8],
        [1, 5],
        [0, 3],
      ] as const) {
        const src = randomBytes(length + srcOffset).subarray(srcOffset);
        const dst = Buffer.alloc(length + dstOffset);
        const counter = iv(salt, ssrc, roc, seq);
        ks.apply(ssrc, roc, seq, src, dst, dstOffset, counter);
        const expected = createCipheriv('aes-128-ctr', key, counter).update(src);
        expect(dst.subarray(dstOffset).equals(expected)).toBe(true);
      }
    }
  });
});
