// The lean receive path for publishers' packets (server/sfu/media/rtp-receive.ts) on werift's real RTCRtpReceiver
// with three simulcast layers: packets reach the tracks as they came (no copy), receiver-report statistics and RTX
// stay werift's, and NACKs are asked per layer — where werift's own handler, fed the three layers' interleaved
// numbers, takes them for tens of thousands of lost packets. NackTracker on a manual clock: gaps, late packets,
// retransmissions, retries, giving up, wrap-around, a jump that is a restart, and its cap.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as werift from 'werift';
import {
  installLeanReceive,
  leanReceiveInstalled,
  NACK_MAX_GAP,
  NACK_MAX_MISSING,
  NACK_MAX_TRIES,
  NACK_RETRY_MS,
  type NackClock,
  NackTracker,
  useNackClock,
  weriftHandleRtp,
} from '../../server/sfu/media/rtp-receive';

/** A clock whose interval runs when the test moves time. */
function manual(): NackClock & { advance(ms: number): void } {
  let now = 0;
  let job: { fn: () => void; ms: number; next: number } | null = null;
  return {
    now: () => now,
    setInterval: (fn, ms) => {
      job = { fn, ms, next: now + ms };
      return job;
    },
    clearInterval: (h) => {
      if (job === h) job = null;
    },
    advance(ms) {
      const end = now + ms;
      while (job && job.next <= end) {
        now = job.next;
        job.next += job.ms;
        job.fn();
      }
      now = end;
    },
  };
}

describe('NackTracker', () => {
  const setUp = () => {
    const clock = manual();
    const sent: { ssrc: number; lost: number[] }[] = [];
    const t = new NackTracker((ssrc, lost) => sent.push({ ssrc, lost }), clock);
    return { clock, sent, t };
  };

  it('asks for a gap of its own stream only, on the next tick, and not for interleaved layers', () => {
    const { clock, sent, t } = setUp();
    // Three layers' numbers interleaved, nothing lost in any.
    for (let i = 0; i < 50; i++) {
      t.observe(1, 100 + i);
      t.observe(2, 30_000 + i);
      t.observe(3, 65_500 + i);
    }
    clock.advance(200);
    expect(sent).toEqual([]);
    // Layer 2 loses 30050 and 30051.
    t.observe(2, 30_052);
    t.observe(1, 150);
    expect(t.missing(2)).toEqual([30_050, 30_051]);
    clock.advance(20);
    expect(sent).toEqual([{ ssrc: 2, lost: [30_050, 30_051] }]);
  });

  it('a late packet or a retransmission settles it; what stays missing is asked again, then given up', () => {
    const { clock, sent, t } = setUp();
    t.observe(7, 10);
    t.observe(7, 14);
    t.observe(7, 12); // reordered, not lost
    t.recovered(7, 11); // RTX
    expect(t.missing(7)).toEqual([13]);
    clock.advance(20);
    clock.advance(NACK_RETRY_MS * (NACK_MAX_TRIES + 2));
    expect(sent.map((s) => s.lost)).toEqual(Array.from({ length: NACK_MAX_TRIES }, () => [13]));
    expect(t.missing(7)).toEqual([]);
    const before = sent.length;
    clock.advance(1_000);
    expect(sent).toHaveLength(before);
  });

  it('counts across the wrap of sequence numbers, and takes a long jump for a restart', () => {
    const { clock, sent, t } = setUp();
    t.observe(5, 65_534);
    t.observe(5, 1);
    expect(t.missing(5)).toEqual([65_535, 0]);
    t.observe(5, 1 + NACK_MAX_GAP + 2);
    expect(t.missing(5)).toEqual([]);
    clock.advance(20);
    expect(sent).toEqual([]);
  });

  it('waits for at most NACK_MAX_MISSING packets of a stream, the newest', () => {
    const { t } = setUp();
    t.observe(9, 0);
    t.observe(9, NACK_MAX_GAP + 1);
    expect(t.missing(9)).toHaveLength(NACK_MAX_MISSING);
    expect(t.missing(9).at(-1)).toBe(NACK_MAX_GAP);
  });
});

describe("werift's receiver with the lean path", () => {
  let clock: ReturnType<typeof manual>;
  beforeAll(() => {
    expect(installLeanReceive()).toBe(true);
    expect(leanReceiveInstalled()).toBe(true);
  });
  beforeEach(() => {
    clock = manual();
    useNackClock(clock);
  });
  const receivers: werift.RTCRtpReceiver[] = [];
  afterEach(() => {
    for (const r of receivers.splice(0)) r.stop();
    useNackClock(null);
  });

  const RIDS = ['q', 'h', 'f'] as const;
  /** A real receiver of VP8 with NACK and RTX, three layers, its RTCP recorded. */
  function receiver() {
    const r = new werift.RTCRtpReceiver({ debug: {} } as never, 'video', 4242);
    receivers.push(r);
    const vp8 = new werift.RTCRtpCodecParameters({
      mimeType: 'video/VP8',
      clockRate: 90_000,
      payloadType: 96,
      rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
    });
    const rtx = new werift.RTCRtpCodecParameters({
      mimeType: 'video/rtx',
      clockRate: 90_000,
      payloadType: 97,
      parameters: 'apt=96',
    });
    r.prepareReceive({ codecs: [vp8, rtx], encodings: [{ ssrc: 2000, rtx: { ssrc: 2500 } }] } as never);
    const rtcp: werift.RtcpPacket[] = [];
    (r as unknown as { dtlsTransport: unknown }).dtlsTransport = {
      sendRtcp: (packets: werift.RtcpPacket[]) => {
        rtcp.push(...packets);
        return Promise.resolve();
      },
    };
    const got = new Map<string, werift.RtpPacket[]>();
    for (const rid of RIDS) {
      const track = new werift.MediaStreamTrack({ kind: 'video', rid, remote: true });
      r.addTrack(track);
      got.set(rid, []);
      track.onReceiveRtp.subscribe((p) => got.get(rid)?.push(p));
    }
    const ssrcOf = { q: 1000, h: 2000, f: 3000 };
    const base = { q: 100, h: 40_000, f: 65_000 };
    const packet = (rid: (typeof RIDS)[number], i: number) =>
      new werift.RtpPacket(
        new werift.RtpHeader({
          payloadType: 96,
          ssrc: ssrcOf[rid],
          sequenceNumber: (base[rid] + i) & 0xffff,
          timestamp: 3000 * i,
        }),
        Buffer.from([0x90, 0x80, i & 0x7f, 1, 2, 3]),
      );
    const nacks = () =>
      rtcp
        .filter((p): p is werift.RtcpTransportLayerFeedback => p instanceof werift.RtcpTransportLayerFeedback)
        .map((p) => {
          const n = p.feedback as werift.GenericNack;
          return { ssrc: n.mediaSourceSsrc, lost: n.lost };
        });
    return { r, got, packet, nacks, ssrcOf };
  }

  it('hands each packet on as it came, keeps the statistics, and asks for nothing that was not lost', () => {
    const { r, got, packet, nacks, ssrcOf } = receiver();
    const sent = new Map<string, werift.RtpPacket[]>(RIDS.map((rid) => [rid, []]));
    for (let i = 0; i < 40; i++)
      for (const rid of RIDS) {
        const p = packet(rid, i);
        sent.get(rid)?.push(p);
        r.handleRtpByRid(p, rid, {});
      }
    // Each layer's own packets, in order; from the second of each on, the very objects that came in (the first is
    // werift's, which makes the layer's statistics, and copies).
    for (const rid of RIDS) {
      const came = got.get(rid) ?? [];
      expect(came.map((p) => p.header.sequenceNumber)).toEqual(sent.get(rid)?.map((p) => p.header.sequenceNumber));
      for (let i = 1; i < came.length; i++) expect(came[i]).toBe(sent.get(rid)?.[i]);
    }
    const stats = (r as unknown as { remoteStreams: Record<number, { packets_received: number }> }).remoteStreams;
    for (const rid of RIDS) expect(stats[ssrcOf[rid]]?.packets_received).toBe(40);
    clock.advance(10 * NACK_RETRY_MS);
    expect(nacks()).toEqual([]);
  });

  it('asks for the packets a layer lost, under that layer, and stops once its retransmission came', () => {
    const { r, got, packet, nacks, ssrcOf } = receiver();
    for (let i = 0; i < 12; i++)
      for (const rid of RIDS) {
        // h loses its 11th packet.
        if (!(rid === 'h' && i === 10)) r.handleRtpByRid(packet(rid, i), rid, {});
      }
    clock.advance(20);
    expect(nacks()).toEqual([{ ssrc: ssrcOf.h, lost: [40_010] }]);
    // Its retransmission (RTX: the original sequence number first) comes: it reaches the layer, and the asking stops.
    const lostOne = packet('h', 10);
    const osn = Buffer.alloc(2);
    osn.writeUInt16BE(lostOne.header.sequenceNumber);
    const retransmission = new werift.RtpPacket(
      new werift.RtpHeader({ payloadType: 97, ssrc: 2500, sequenceNumber: 7, timestamp: lostOne.header.timestamp }),
      Buffer.concat([osn, lostOne.payload]),
    );
    r.handleRtpBySsrc(retransmission, {});
    expect(got.get('h')?.map((p) => p.header.sequenceNumber)).toContain(40_010);
    clock.advance(10 * NACK_RETRY_MS);
    expect(nacks()).toEqual([{ ssrc: ssrcOf.h, lost: [40_010] }]);
  });

  it("werift's own handler, on the same interleaved layers, takes them for thousands of lost packets", () => {
    const { r, packet } = receiver();
    const own = weriftHandleRtp();
    const track = (rid: string) => (r as unknown as { trackByRID: Record<string, unknown> }).trackByRID[rid];
    for (let i = 0; i < 3; i++) for (const rid of RIDS) own.call(r as never, packet(rid, i), {}, track(rid) as never);
    const lost = (r as unknown as { nack: { lostSeqNumbers: number[] } }).nack.lostSeqNumbers;
    // Nothing was lost; werift's handler waits for its cap of made-up numbers.
    expect(lost.length).toBeGreaterThan(100);
  });
});
