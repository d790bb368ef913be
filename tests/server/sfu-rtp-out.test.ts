// The forwarding path's direct RTP send (server/sfu/rtp-out.ts) against werift's RTCRtpSender.sendRtp given the same
// send time: the same bytes on the wire (header extensions, SRTP, across a sequence number wrap), the same sender-report counters, and
// NACKs answered from the retransmission cache with the same bytes.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as werift from 'werift';
import { PADDING_BYTES, PADDING_PAYLOAD } from '../../server/sfu/media/endpoints';
import { extensionLayout, headerLength, RtpOut, sendClock, writeRtpHeader } from '../../server/sfu/media/rtp-out';
import { installFastSrtp } from '../../server/sfu/media/srtp-fast';

const URI = werift.RTP_EXTENSION_URI;
const PT = 96;

/** A werift sender on a stand-in DTLS transport that records what it would put on the wire. */
function senderOn(profile: number, keys: werift.SrtpSession['config']['keys'], fast: boolean) {
  const wire: Buffer[] = [];
  const dtls = Object.assign(Object.create(werift.RTCDtlsTransport.prototype) as werift.RTCDtlsTransport, {
    state: 'connected',
    config: {},
    bytesSent: 0,
    packetsSent: 0,
    srtp: new werift.SrtpSession({ keys, profile }),
    srtcp: new werift.SrtcpSession({ keys, profile }),
    iceTransport: { connection: { send: async (data: Buffer) => void wire.push(Buffer.from(data)) } },
  });
  if (fast) expect(installFastSrtp(dtls)).not.toBeNull();
  const sender = new werift.RTCRtpSender('video');
  const s = sender as unknown as Record<string, unknown>;
  s.dtlsTransport = dtls;
  s.codec = { payloadType: PT };
  s.ssrc = 0xcafe0001;
  s.mid = '1';
  s.headerExtensions = [
    { uri: URI.sdesMid, id: 1 },
    { uri: URI.sdesRTPStreamID, id: 2 },
    { uri: URI.repairedRtpStreamId, id: 3 },
    { uri: URI.absSendTime, id: 4 },
  ];
  s.rtcpRunning = true; // no sender-report timer in a unit test
  return { sender, wire, dtls };
}

/**
 * Waits until both senders have put `length` packets on the wire: werift answers a NACK by counting the
 * retransmissions at once and sending them asynchronously.
 */
async function wiresReach(length: number, ...senders: { wire: Buffer[] }[]) {
  await vi.waitFor(() => {
    for (const s of senders) expect(s.wire.length).toBeGreaterThanOrEqual(length);
  });
}

/**
 * werift's sender with the send time RtpOut writes (sendClock: werift's own clock is not RFC 3550's): an
 * abs-send-time extension in the packet overrides the one werift computes, and its sender-report time is set after.
 */
async function sendAsReference(sender: werift.RTCRtpSender, header: werift.RtpHeader, payload: Buffer) {
  const clock = sendClock();
  const abs = Buffer.alloc(3);
  abs.writeUIntBE(clock.absSendTime, 0, 3);
  header.extensions = [{ id: 4, payload: abs }];
  const sent = sender.sendRtp(new werift.RtpPacket(header, payload));
  (sender as unknown as { ntpTimestamp: bigint }).ntpTimestamp = clock.ntp;
  await sent;
}

const keys = () => ({
  localMasterKey: randomBytes(16),
  localMasterSalt: randomBytes(14),
  remoteMasterKey: randomBytes(16),
  remoteMasterSalt: randomBytes(14),
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('sendClock', () => {
  const ntpEpochMs = Date.UTC(1900, 0, 1);
  it('reads the clock as RFC 3550 NTP, a binary fraction, and abs-send-time as its 6.18 bits', () => {
    for (const now of [1_000.5, 123_456.789, 7_777_777.25, 42, 1_795_743_505_561.125]) {
      const clock = sendClock(now);
      const seconds = Number(clock.ntp >> 32n);
      const fraction = Number(clock.ntp & 0xffffffffn) / 2 ** 32;
      expect(seconds * 1000 + fraction * 1000 + ntpEpochMs).toBeCloseTo(now, 3);
      expect(clock.absSendTime).toBe(werift.serializeAbsSendTime(clock.ntp).readUIntBE(0, 3));
    }
  });

  it('moves abs-send-time by 2^18 a second, evenly within the second (werift’s clock read the fraction’s decimal digits)', () => {
    const at = (ms: number) => sendClock(1_795_743_505_000 + ms).absSendTime;
    // 1 ms is 262.144 units of 2^-18 s; 250 ms is 65,536.
    expect(at(1) - at(0)).toBeGreaterThanOrEqual(262);
    expect(at(1) - at(0)).toBeLessThanOrEqual(263);
    expect(at(250) - at(0)).toBe(65_536);
    expect(at(999) - at(0)).toBeGreaterThan(261_000);
  });
});

describe('writeRtpHeader', () => {
  it('writes the header werift serializes, with and without extensions', () => {
    for (const withExtensions of [true, false]) {
      const slots = withExtensions
        ? (extensionLayout(
            [
              { uri: URI.absSendTime, id: 3 },
              { uri: URI.sdesMid, id: 9 },
            ],
            { mid: 'video-0' },
          ) ?? [])
        : [];
      const out = Buffer.alloc(64);
      const length = writeRtpHeader(out, slots, true, 111, 65535, 0xfffffff0, 0x01020304, 0xabcdef);
      expect(length).toBe(headerLength(slots));
      const reference = new werift.RtpHeader({
        marker: true,
        payloadType: 111,
        sequenceNumber: 65535,
        timestamp: 0xfffffff0,
        ssrc: 0x01020304,
        extensions: withExtensions
          ? [
              { id: 3, payload: Buffer.from([0xab, 0xcd, 0xef]) },
              { id: 9, payload: Buffer.from('video-0') },
            ]
          : [],
      });
      expect(out.subarray(0, length).equals(reference.serialize(reference.serializeSize))).toBe(true);
    }
  });

  it('leaves transport-cc to werift', () => {
    expect(extensionLayout([{ uri: URI.transportWideCC, id: 5 }], {})).toBeNull();
  });
});

describe.each([
  ['AES_CM_128_HMAC_SHA1_80', werift.ProtectionProfileAes128CmHmacSha1_80],
  ['AEAD_AES_128_GCM', werift.ProtectionProfileAeadAes128Gcm],
])('RtpOut %s', (_name, profile) => {
  it('puts the bytes werift would on the wire, keeps its counters, and answers NACKs the same', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(98_765.4321);
    const k = keys();
    const reference = senderOn(profile, k, false);
    const direct = senderOn(profile, k, true);
    const out = new RtpOut(direct.sender);
    const seqs = [65533, 65534, 65535, 0, 1, 2];
    for (const [i, seq] of seqs.entries()) {
      const payload = randomBytes(50 + i * 200);
      const ts = (0xffffff00 + i * 3000) >>> 0;
      const marker = i % 2 === 1;
      const header = new werift.RtpHeader({
        marker,
        payloadType: 0,
        sequenceNumber: seq,
        timestamp: ts,
        ssrc: 0,
        extensions: [],
      });
      await sendAsReference(reference.sender, header, payload);
      out.send(payload, marker, seq, ts, sendClock());
    }
    expect(direct.wire.length).toBe(seqs.length);
    for (const [i, packet] of direct.wire.entries()) expect(packet.equals(reference.wire[i] as Buffer)).toBe(true);
    const r = reference.sender as unknown as Record<string, unknown>;
    const d = direct.sender as unknown as Record<string, unknown>;
    for (const field of [
      'sequenceNumber',
      'timestamp',
      'ntpTimestamp',
      'rtpTimestamp',
      'octetCount',
      'packetCount',
      'headerBytesSent',
    ]) {
      expect(d[field], field).toEqual(r[field]);
    }
    expect((direct.dtls as unknown as { bytesSent: number }).bytesSent).toBe(
      (reference.dtls as unknown as { bytesSent: number }).bytesSent,
    );

    // A NACK for two packets across the wrap: werift retransmits both from its cache.
    const nack = new werift.RtcpTransportLayerFeedback({
      feedback: new werift.GenericNack({ senderSsrc: 1, mediaSourceSsrc: 0xcafe0001, lost: [65535, 1] }),
    });
    reference.sender.handleRtcpPacket(nack);
    direct.sender.handleRtcpPacket(nack);
    await wiresReach(seqs.length + 2, reference, direct);
    expect(direct.wire.length).toBe(seqs.length + 2);
    for (let i = seqs.length; i < direct.wire.length; i++)
      expect((direct.wire[i] as Buffer).equals(reference.wire[i] as Buffer)).toBe(true);
  });

  it('sends probe padding as werift would, without keeping it for retransmission', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(55_555.5);
    const k = keys();
    const reference = senderOn(profile, k, false);
    const direct = senderOn(profile, k, true);
    const out = new RtpOut(direct.sender);
    for (const [i, seq] of [65535, 0, 1].entries()) {
      const header = new werift.RtpHeader({
        padding: true,
        paddingSize: PADDING_BYTES,
        payloadType: 0,
        sequenceNumber: seq,
        timestamp: 3000 * i,
        ssrc: 0,
        extensions: [],
      });
      await sendAsReference(reference.sender, header, PADDING_PAYLOAD);
      expect(out.sendPadding(PADDING_PAYLOAD, seq, 3000 * i, sendClock())).toBe(true);
    }
    expect(direct.wire.length).toBe(3);
    for (const [i, packet] of direct.wire.entries()) expect(packet.equals(reference.wire[i] as Buffer)).toBe(true);
    const r = reference.sender as unknown as Record<string, unknown>;
    const d = direct.sender as unknown as Record<string, unknown>;
    for (const field of ['sequenceNumber', 'timestamp', 'ntpTimestamp', 'rtpTimestamp', 'packetCount'])
      expect(d[field], field).toEqual(r[field]);
    // RFC 3550's octet count leaves padding out.
    expect(d.octetCount).toBe(0);
    const nack = new werift.RtcpTransportLayerFeedback({
      feedback: new werift.GenericNack({ senderSsrc: 1, mediaSourceSsrc: 0xcafe0001, lost: [0] }),
    });
    direct.sender.handleRtcpPacket(nack);
    await new Promise((resolve) => setImmediate(resolve));
    expect(direct.wire.length).toBe(3);
  });

  it('sends a subscriber’s own descriptor in place of the shared payload’s first bytes, and retransmits it as sent', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(12_345.678);
    const k = keys();
    const reference = senderOn(profile, k, false);
    const direct = senderOn(profile, k, true);
    const out = new RtpOut(direct.sender);
    const shared: Buffer[] = [];
    for (const [i, seq] of [65535, 0].entries()) {
      const payload = randomBytes(40 + i * 500);
      shared.push(Buffer.from(payload));
      const descriptor = Buffer.from([0x90, 0xe0, 0x80 | i, 0x42, 0x07]);
      const header = new werift.RtpHeader({
        marker: true,
        payloadType: 0,
        sequenceNumber: seq,
        timestamp: 1000 * i,
        ssrc: 0,
        extensions: [],
      });
      await sendAsReference(reference.sender, header, Buffer.concat([descriptor, payload.subarray(descriptor.length)]));
      out.send(payload, true, seq, 1000 * i, sendClock(), descriptor);
      // The payload other subscribers get is untouched.
      expect(payload.equals(shared[i] as Buffer)).toBe(true);
    }
    for (const [i, packet] of direct.wire.entries()) expect(packet.equals(reference.wire[i] as Buffer)).toBe(true);
    const nack = new werift.RtcpTransportLayerFeedback({
      feedback: new werift.GenericNack({ senderSsrc: 1, mediaSourceSsrc: 0xcafe0001, lost: [65535, 0] }),
    });
    reference.sender.handleRtcpPacket(nack);
    direct.sender.handleRtcpPacket(nack);
    await wiresReach(4, reference, direct);
    expect(direct.wire.length).toBe(4);
    for (let i = 2; i < 4; i++) expect((direct.wire[i] as Buffer).equals(reference.wire[i] as Buffer)).toBe(true);
  });
});
