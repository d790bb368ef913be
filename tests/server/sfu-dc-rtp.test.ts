// The native packet path's own RTP and RTCP reading (server/sfu/media/dc-endpoints.ts), on hand-made packets:
// header extensions (rid, audio level, transport-wide sequence number), padding, simulcast layers told apart by rid
// and then by SSRC, and the subscriber's RTCP (receiver reports, PLI, FIR, REMB) handed to the stream it names.
import { describe, expect, it } from 'vitest';
import {
  DcDownstream,
  DcUpstream,
  dispatchRtcp,
  isRtcp,
  type ParsedRtp,
  parseRtp,
  pli,
} from '../../server/sfu/media/dc-endpoints';
import type { RtpView, UpstreamLayer } from '../../server/sfu/media/endpoints';

const IDS = { rid: 10, audioLevel: 1, transportCc: 3 };

function rtp(opts: {
  seq: number;
  ssrc: number;
  pt?: number;
  marker?: boolean;
  ext?: Array<[number, Buffer]>;
  payload: Buffer;
  padding?: number;
}): Buffer {
  const exts = opts.ext ?? [];
  let extBytes = Buffer.alloc(0);
  if (exts.length) {
    const body = Buffer.concat(
      exts.map(([id, data]) => Buffer.concat([Buffer.from([(id << 4) | (data.length - 1)]), data])),
    );
    const words = Math.ceil(body.length / 4);
    extBytes = Buffer.alloc(4 + words * 4);
    extBytes.writeUInt16BE(0xbede, 0);
    extBytes.writeUInt16BE(words, 2);
    body.copy(extBytes, 4);
  }
  const h = Buffer.alloc(12);
  h[0] = 0x80 | (exts.length ? 0x10 : 0) | (opts.padding ? 0x20 : 0);
  h[1] = (opts.marker ? 0x80 : 0) | (opts.pt ?? 96);
  h.writeUInt16BE(opts.seq, 2);
  h.writeUInt32BE(opts.seq * 3000, 4);
  h.writeUInt32BE(opts.ssrc, 8);
  const pad = opts.padding ? Buffer.alloc(opts.padding) : Buffer.alloc(0);
  if (opts.padding) pad[opts.padding - 1] = opts.padding;
  return Buffer.concat([h, extBytes, opts.payload, pad]);
}

describe('parseRtp', () => {
  it('reads the header, the extensions it is told about and the payload without padding', () => {
    const twcc = Buffer.alloc(2);
    twcc.writeUInt16BE(4242);
    const buf = rtp({
      seq: 7,
      ssrc: 0xdeadbeef,
      marker: true,
      ext: [
        [10, Buffer.from('h')],
        [1, Buffer.from([0x80 | 33])],
        [3, twcc],
      ],
      payload: Buffer.from('payload!'),
      padding: 4,
    });
    const p = parseRtp(buf, IDS) as ParsedRtp;
    expect(p).toMatchObject({
      ssrc: 0xdeadbeef,
      payloadType: 96,
      sequenceNumber: 7,
      timestamp: 21000,
      marker: true,
      rid: 'h',
      audioLevel: 33,
      transportSeq: 4242,
    });
    expect(buf.subarray(p.payloadStart, p.payloadEnd).toString()).toBe('payload!');
    expect(isRtcp(buf)).toBe(false);
  });

  it('refuses a truncated extension block and a padding count past the header', () => {
    const buf = rtp({ seq: 1, ssrc: 1, ext: [[10, Buffer.from('q')]], payload: Buffer.alloc(0) });
    expect(parseRtp(buf.subarray(0, 14), IDS)).toBeNull();
    const bad = rtp({ seq: 1, ssrc: 1, payload: Buffer.alloc(2) });
    bad[0] = (bad[0] as number) | 0x20;
    bad[bad.length - 1] = 200;
    expect(parseRtp(bad, IDS)).toBeNull();
  });
});

describe('DcUpstream', () => {
  it('tells simulcast layers apart by rid, then by SSRC once a rid named it; drops other payload types', () => {
    const sent: Buffer[] = [];
    const up = new DcUpstream(new Set([96]), true, (b) => sent.push(b), 99);
    const seen = new Map<string, number[]>();
    const layers: UpstreamLayer[] = [];
    up.onLayer((layer) => {
      layers.push(layer);
      layer.subscribe((view: RtpView) => {
        seen.set(layer.rid, [...(seen.get(layer.rid) ?? []), view.header.sequenceNumber]);
      });
    });
    const feed = (b: Buffer) => up.receive(b, parseRtp(b, IDS) as ParsedRtp);
    feed(rtp({ seq: 1, ssrc: 111, payload: Buffer.from('x') })); // no rid, SSRC unknown: dropped
    feed(rtp({ seq: 2, ssrc: 111, ext: [[10, Buffer.from('q')]], payload: Buffer.from('x') }));
    feed(rtp({ seq: 3, ssrc: 111, payload: Buffer.from('x') })); // known SSRC now
    feed(rtp({ seq: 4, ssrc: 222, ext: [[10, Buffer.from('f')]], payload: Buffer.from('x') }));
    feed(rtp({ seq: 5, ssrc: 222, pt: 97, payload: Buffer.from('x') })); // RTX: not forwarded
    expect(Object.fromEntries(seen)).toEqual({ q: [2, 3], f: [4] });
    expect(layers.map((l) => [l.rid, l.ssrc])).toEqual([
      ['q', 111],
      ['f', 222],
    ]);
    up.requestKeyframe(222);
    expect(sent).toEqual([pli(99, 222)]);
    expect(sent[0]?.readUInt32BE(8)).toBe(222);
  });

  it('without simulcast every SSRC of the section is the one layer ""', () => {
    const up = new DcUpstream(new Set([111]), false, () => {}, 1);
    const got: Array<[string, number | undefined]> = [];
    up.onLayer((l) => l.subscribe((_v, level) => got.push([l.rid, level])));
    const b = rtp({ seq: 1, ssrc: 5, pt: 111, ext: [[1, Buffer.from([40])]], payload: Buffer.from('a') });
    up.receive(b, parseRtp(b, IDS) as ParsedRtp);
    expect(got).toEqual([['', 40]]);
  });
});

describe('dispatchRtcp', () => {
  function fakeDownstream(ssrc: number) {
    const track = { isOpen: () => true, onOpen: () => {}, onClosed: () => {}, sendMessageBinary: () => true };
    const d = new DcDownstream(track as never, ssrc, 96, 0);
    const events: string[] = [];
    d.listen({
      keyframeRequested: () => events.push('pli'),
      estimate: (bps) => events.push(`remb ${bps}`),
      report: (lost, jitter) => events.push(`rr ${lost} ${jitter}`),
    });
    return { d, events };
  }

  it('hands each part of a compound packet to the stream it names', () => {
    const a = fakeDownstream(0xaaaa);
    const b = fakeDownstream(0xbbbb);
    const map = new Map([
      [0xaaaa, a.d],
      [0xbbbb, b.d],
    ]);
    // RR from SSRC 1 with one block about 0xaaaa: 64/256 lost, jitter 900.
    const rr = Buffer.alloc(32);
    rr[0] = 0x81;
    rr[1] = 201;
    rr.writeUInt16BE(7, 2);
    rr.writeUInt32BE(1, 4);
    rr.writeUInt32BE(0xaaaa, 8);
    rr[12] = 64;
    rr.writeUInt32BE(900, 20);
    // REMB 1.5 Mbit/s for both: mantissa 187500 × 2^3.
    const remb = Buffer.alloc(28);
    remb[0] = 0x8f;
    remb[1] = 206;
    remb.writeUInt16BE(6, 2);
    remb.writeUInt32BE(1, 4);
    remb.write('REMB', 12, 'latin1');
    remb[16] = 2;
    remb[17] = (3 << 2) | (187500 >> 16);
    remb.writeUInt16BE(187500 & 0xffff, 18);
    remb.writeUInt32BE(0xaaaa, 20);
    remb.writeUInt32BE(0xbbbb, 24);
    // FIR for 0xbbbb.
    const fir = Buffer.alloc(20);
    fir[0] = 0x84;
    fir[1] = 206;
    fir.writeUInt16BE(4, 2);
    fir.writeUInt32BE(1, 4);
    fir.writeUInt32BE(0xbbbb, 12);
    const compound = Buffer.concat([rr, remb, pli(1, 0xaaaa), fir]);
    expect(isRtcp(compound)).toBe(true);
    dispatchRtcp(compound, map);
    expect(a.events).toEqual(['rr 64 900', 'remb 1500000', 'pli']);
    expect(b.events).toEqual(['remb 1500000', 'pli']);
  });
});
