// Transport-cc feedback to publishers (server/sfu/media/twcc.ts, session/uplink-feedback.ts), fed synthetic arrival
// times and read back with werift's own RTCP parser, an implementation independent of ours.
import { describe, expect, it } from 'vitest';
import { RtcpPacketConverter, type RtcpTransportLayerFeedback, type TransportWideCC } from 'werift';
import { TwccResponder } from '../../server/sfu/media/twcc';
import {
  addStartBitrate,
  addTransportCc,
  offeredExtensionId,
  TRANSPORT_CC_URI,
} from '../../server/sfu/session/uplink-feedback';

function decode(buf: Buffer): TransportWideCC {
  expect(buf.length % 4).toBe(0);
  const [packet] = RtcpPacketConverter.deSerialize(buf);
  expect(packet?.type).toBe(205);
  return (packet as RtcpTransportLayerFeedback).feedback as TransportWideCC;
}

/** Arrival (µs) of each received sequence number, rebuilt from the feedback as a sender does. */
function arrivals(fb: TransportWideCC): Map<number, number> {
  const out = new Map<number, number>();
  let at = fb.referenceTime * 64_000;
  let d = 0;
  let seq = fb.baseSequenceNumber;
  for (const chunk of fb.packetChunks) {
    const symbols =
      'runLength' in chunk
        ? Array(chunk.runLength).fill(chunk.packetStatus)
        : (chunk as { symbolList: number[] }).symbolList;
    for (const status of symbols) {
      if (out.size + countLost(out, fb, seq) >= fb.packetStatusCount) break;
      if (status === 1 || status === 2) {
        at += (fb.recvDeltas[d++] as { delta: number }).delta;
        out.set(seq & 0xffff, at);
      }
      seq++;
    }
  }
  return out;
}
const countLost = (got: Map<number, number>, fb: TransportWideCC, seq: number) =>
  ((seq - fb.baseSequenceNumber) & 0xffff) - got.size;

describe('TwccResponder', () => {
  it('reports every received packet with its arrival time, losses as not received, across the 16-bit wrap', () => {
    const r = new TwccResponder(0x1234, 0xabcd);
    const sent = new Map<number, number>();
    for (let i = 0; i < 20; i++) {
      const seq = (65_530 + i) & 0xffff;
      if (i === 3) continue; // lost
      const at = 5_000_000 + i * 1_000 + (i % 3) * 130;
      sent.set(seq, at);
      r.received(seq, at);
    }
    const [buf, ...more] = r.feedback(5_100_000);
    expect(more).toHaveLength(0);
    const fb = decode(buf as Buffer);
    expect(fb.senderSsrc).toBe(0x1234);
    expect(fb.mediaSourceSsrc).toBe(0xabcd);
    expect(fb.baseSequenceNumber).toBe(65_530);
    expect(fb.packetStatusCount).toBe(20);
    const got = arrivals(fb);
    expect([...got.keys()].sort((a, b) => a - b)).toEqual([...sent.keys()].sort((a, b) => a - b));
    for (const [seq, at] of sent) expect(Math.abs((got.get(seq) as number) - at)).toBeLessThanOrEqual(125);
    expect(got.has(65_533)).toBe(false);
    // Reported once: nothing more until something new arrives.
    expect(r.feedback(5_200_000)).toEqual([]);
  });

  it('writes large and negative deltas (a gap, a reordered packet) in two bytes', () => {
    const r = new TwccResponder(1);
    r.received(100, 1_000_000);
    r.received(102, 1_001_000); // arrives 1 ms before 101
    r.received(101, 1_002_000);
    r.received(103, 1_150_000); // 150 ms later: 600 ticks
    const fb = decode(r.feedback(1_200_000)[0] as Buffer);
    const got = arrivals(fb);
    expect(got.get(100)).toBe(1_000_000);
    expect(got.get(101)).toBe(1_002_000);
    expect(got.get(102)).toBe(1_001_000); // back in time: a negative delta
    expect(fb.recvDeltas.map((d) => d.type)).toEqual([1, 1, 2, 2]);
    expect(got.get(103)).toBe(1_150_000);
  });

  it('runs of one status become run-length chunks; a long burst splits into several packets under an MTU', () => {
    const r = new TwccResponder(1);
    for (let i = 0; i < 2_500; i++) r.received(i, 10_000_000 + i * 100);
    const packets = r.feedback(11_000_000);
    expect(packets.length).toBe(3);
    let total = 0;
    for (const buf of packets) {
      expect(buf.length).toBeLessThan(1_200);
      const fb = decode(buf);
      total += arrivals(fb).size;
    }
    expect(total).toBe(2_500);
  });

  it('ignores duplicates and packets already reported, holds trailing losses, and counts feedback packets', () => {
    const r = new TwccResponder(1);
    r.received(10, 1_000);
    r.received(10, 1_500);
    const first = decode(r.feedback(2_000)[0] as Buffer);
    expect(first.packetStatusCount).toBe(1);
    r.received(10, 3_000); // late duplicate of a reported packet
    expect(r.feedback(4_000)).toEqual([]);
    r.received(13, 5_000); // 11 and 12 missing so far
    const second = decode(r.feedback(6_000)[0] as Buffer);
    expect(second.baseSequenceNumber).toBe(11);
    expect(second.packetStatusCount).toBe(3);
    expect([...arrivals(second).keys()]).toEqual([13]);
    expect(second.fbPktCount).toBe((first.fbPktCount + 1) & 0xff);
  });
});

describe('transport-cc in the answer', () => {
  const offer = [
    'v=0',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'a=mid:0',
    'a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
    'a=sendonly',
    'a=rtpmap:111 opus/48000/2',
    'a=rtcp-fb:111 transport-cc',
    'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
    'a=mid:1',
    'a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
    'a=sendonly',
    'a=rtpmap:96 VP8/90000',
    'a=rtcp-fb:96 transport-cc',
    'a=rtpmap:97 rtx/90000',
    'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
    'a=mid:2',
    'a=recvonly',
    'a=rtpmap:96 VP8/90000',
    '',
  ].join('\r\n');
  const answer = [
    'v=0',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'a=mid:0',
    'a=recvonly',
    'a=rtpmap:111 opus/48000/2',
    'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
    'a=mid:1',
    'a=extmap:4 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time',
    'a=recvonly',
    'a=rtpmap:96 VP8/90000',
    'a=rtcp-fb:96 nack',
    'a=rtpmap:97 rtx/90000',
    'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
    'a=mid:2',
    'a=sendonly',
    'a=rtpmap:96 VP8/90000',
    'a=rtcp-fb:96 goog-remb',
    'a=rtcp-fb:96 transport-cc',
    '',
  ].join('\r\n');

  it('is accepted with the offered id on every media section, feedback only for the offered payload types', () => {
    expect(offeredExtensionId(offer)).toBe(3);
    const { sdp, added } = addTransportCc(answer, 3, new Set(['111', '96']));
    expect(added).toBe(true);
    const sections = sdp.split('m=').slice(1);
    expect(sections[0]).toContain(`a=extmap:3 ${TRANSPORT_CC_URI}`);
    expect(sections[0]).toContain('a=rtcp-fb:111 transport-cc');
    expect(sections[1]).toContain(`a=extmap:3 ${TRANSPORT_CC_URI}`);
    expect(sections[1]).toMatch(/a=rtcp-fb:96 nack\r\na=rtcp-fb:96 transport-cc/);
    expect(sections[1]).not.toContain('a=rtcp-fb:97 transport-cc');
    // The extension is accepted on the section the SFU sends too (Chromium would never offer it again), without
    // the feedback: the browser keeps sending REMB for what it receives.
    expect(sections[2]).toContain(`a=extmap:3 ${TRANSPORT_CC_URI}`);
    expect(sections[2]).not.toContain('transport-cc');
    // Idempotent: a second pass adds nothing.
    expect(addTransportCc(sdp, 3, new Set(['111', '96'])).sdp).toBe(sdp);
  });

  it('leaves rejected and data sections alone, and finds no id in an offer without the extension', () => {
    expect(offeredExtensionId(answer)).toBeNull();
    const other = [
      'v=0',
      'm=video 0 UDP/TLS/RTP/SAVPF 96',
      'a=mid:0',
      'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
      'a=mid:1',
      '',
    ].join('\r\n');
    expect(addTransportCc(other, 3, new Set(['96']))).toEqual({ sdp: other, added: false });
  });

  it('starts the publisher at a set bitrate on the video it sends the SFU, not on repair formats or what it receives', () => {
    const withH264 = answer.replace(
      'a=rtpmap:97 rtx/90000\r\nm=video 9 UDP/TLS/RTP/SAVPF 96 97\r\na=mid:2',
      'a=rtpmap:97 rtx/90000\r\na=fmtp:97 apt=96\r\nm=video 9 UDP/TLS/RTP/SAVPF 96 97\r\na=mid:2',
    );
    const sdp = addStartBitrate(withH264, 1200);
    const sections = sdp.split('m=').slice(1);
    expect(sections[0]).not.toContain('x-google');
    expect(sections[1]).toMatch(/a=rtpmap:96 VP8\/90000\r\na=fmtp:96 x-google-start-bitrate=1200\r\n/);
    expect(sections[1]).toContain('a=fmtp:97 apt=96\r\n');
    expect(sections[2]).not.toContain('x-google');
    // An existing format line gets the parameter appended, once.
    const h264 = sdp.replace('a=fmtp:96 x-google-start-bitrate=1200', 'a=fmtp:96 packetization-mode=1');
    const again = addStartBitrate(h264, 1200);
    expect(again).toContain('a=fmtp:96 packetization-mode=1;x-google-start-bitrate=1200\r\n');
    expect(addStartBitrate(again, 1200)).toBe(again);
  });
});
