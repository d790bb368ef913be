// `node --import tsx bench/sfu-receive.ts`: CPU per publisher's packet on werift's real RTCRtpReceiver (VP8 with NACK,
// three simulcast layers interleaved, 1,100-byte payloads, a subscriber on each layer's track that only reads), through
// the lean receive path (server/sfu/media/rtp-receive.ts) against werift's own handleRTP on a receiver of its own.
// The two alternate five times in one run; the figure is the median round of each, and their ratio.
import * as werift from 'werift';
import { installLeanReceive, weriftHandleRtp } from '../server/sfu/media/rtp-receive';

const N = 60_000;
const ROUNDS = 5;
const RIDS = ['q', 'h', 'f'] as const;
const SSRC = { q: 1000, h: 2000, f: 3000 };
const BASE = { q: 100, h: 40_000, f: 65_000 };

installLeanReceive();

function receiver() {
  const r = new werift.RTCRtpReceiver({ debug: {} } as never, 'video', 4242);
  r.prepareReceive({
    codecs: [
      new werift.RTCRtpCodecParameters({
        mimeType: 'video/VP8',
        clockRate: 90_000,
        payloadType: 96,
        rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
      }),
    ],
    encodings: [],
  } as never);
  (r as unknown as { dtlsTransport: unknown }).dtlsTransport = { sendRtcp: () => Promise.resolve() };
  let bytes = 0;
  const tracks: Record<string, werift.MediaStreamTrack> = {};
  for (const rid of RIDS) {
    const track = new werift.MediaStreamTrack({ kind: 'video', rid, remote: true });
    r.addTrack(track);
    tracks[rid] = track;
    track.onReceiveRtp.subscribe((p) => {
      bytes += p.payload.length;
    });
  }
  return { r, tracks, read: () => bytes };
}

const payload = Buffer.alloc(1100, 7);
let seq = 0;
/** The next packets, one per layer, each a fresh object as SRTP's decrypt makes them. */
function packets() {
  const i = seq++;
  return RIDS.map(
    (rid) =>
      new werift.RtpPacket(
        new werift.RtpHeader({
          payloadType: 96,
          ssrc: SSRC[rid],
          sequenceNumber: (BASE[rid] + i) & 0xffff,
          timestamp: 3000 * i,
        }),
        payload,
      ),
  );
}

const lean = receiver();
const own = receiver();
const original = weriftHandleRtp();
const viaLean = (p: werift.RtpPacket, rid: string) => lean.r.handleRtpByRid(p, rid, {});
const viaWerift = (p: werift.RtpPacket, rid: string) => original.call(own.r as never, p, {}, own.tracks[rid] as never);

function round(send: (p: werift.RtpPacket, rid: string) => void): number {
  const batches = Array.from({ length: N / 3 }, packets);
  const start = process.cpuUsage();
  for (const batch of batches) for (let k = 0; k < 3; k++) send(batch[k] as werift.RtpPacket, RIDS[k] as string);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / N; // ns a packet
}

const leanNs: number[] = [];
const weriftNs: number[] = [];
round(viaLean);
round(viaWerift);
for (let i = 0; i < ROUNDS; i++) {
  leanNs.push(round(viaLean));
  weriftNs.push(round(viaWerift));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const l = median(leanNs);
const w = median(weriftNs);
console.log(
  `receive path: lean ${(l / 1000).toFixed(2)} µs a packet, werift's ${(w / 1000).toFixed(2)} µs (${(l / w).toFixed(2)}×); ` +
    `rounds lean ${leanNs.map((x) => (x / 1000).toFixed(2)).join(', ')}, werift ${weriftNs.map((x) => (x / 1000).toFixed(2)).join(', ')}`,
);
lean.r.stop();
own.r.stop();
process.exit(0);
