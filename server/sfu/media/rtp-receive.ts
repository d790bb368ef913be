// The receive path for what publishers send, leaner than werift's RTCRtpReceiver.handleRTP and with NACKs that
// follow each stream on its own. werift's receiver, for every packet: lower-cases the codec's name twice, clones the
// packet (header and payload) before handing it on, starts an async RTCP loop (a promise a packet), and feeds one
// NackHandler per receiver with every simulcast layer's sequence numbers. Those are three independent number spaces
// interleaved, so its handler takes a jump from one layer's numbers to another's for a loss of up to 65,535 packets:
// it walks the whole gap, and asks the publisher every 5 ms, under whichever layer's SSRC came last, for packets it
// never lost (tests/server/sfu-rtp-receive.test.ts shows it on werift's own code).
//
// Here the statistics for receiver reports, transport-cc, RTX and RED stay werift's (a first packet of an SSRC, RTX and
// RED go through its own code); the media packet itself goes to the track as it is (the forwarding only reads it),
// and NACKs come from NackTracker: per SSRC, modulo 2^16, a jump too long for a loss taken as a restart.
import * as werift from 'werift';

/** A gap longer than this is a stream that restarted or a number space that moved, not packets lost. */
export const NACK_MAX_GAP = 200;
/** At most this many packets of one stream waited for at once (the oldest are given up first). */
export const NACK_MAX_MISSING = 150;
/** A packet still missing is asked for again this often… */
export const NACK_RETRY_MS = 100;
/** …this many times in all. */
export const NACK_MAX_TRIES = 5;
/** How often the tracker looks for what is due, while anything is missing. */
export const NACK_TICK_MS = 20;

export interface NackClock {
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const realClock: NackClock = {
  now: () => performance.now(),
  setInterval: (fn, ms) => {
    const t = setInterval(fn, ms);
    t.unref();
    return t;
  },
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};

let receiverClock: NackClock = realClock;
/** The clock the receivers' trackers start on from now on (tests move it by hand). */
export function useNackClock(clock: NackClock | null): void {
  receiverClock = clock ?? realClock;
}

interface Missing {
  tries: number;
  lastAt: number;
}

interface Stream {
  highest: number;
  /** Sequence number → how often it was asked for; in the order the gaps were seen. */
  missing: Map<number, Missing>;
}

/** Which packets of each of a publisher's streams are missing, and the NACKs that ask for them. */
export class NackTracker {
  private readonly streams = new Map<number, Stream>();
  private timer: unknown = null;

  constructor(
    private readonly send: (ssrc: number, lost: number[]) => void,
    private readonly clock: NackClock = realClock,
  ) {}

  /** A media packet of `ssrc` arrived. */
  observe(ssrc: number, seq: number): void {
    const s = this.streams.get(ssrc);
    if (!s) {
      this.streams.set(ssrc, { highest: seq, missing: new Map() });
      return;
    }
    const ahead = (seq - s.highest) & 0xffff;
    if (ahead === 0) return;
    if (ahead >= 0x8000) {
      // Late: a retransmission, or a packet that was only reordered.
      s.missing.delete(seq);
      return;
    }
    if (ahead > NACK_MAX_GAP + 1) {
      s.missing.clear();
    } else {
      for (let i = 1; i < ahead; i++) s.missing.set((s.highest + i) & 0xffff, { tries: 0, lastAt: -Infinity });
      for (const old of s.missing.keys()) {
        if (s.missing.size <= NACK_MAX_MISSING) break;
        s.missing.delete(old);
      }
      if (s.missing.size > 0) this.start();
    }
    s.highest = seq;
  }

  /** A retransmission (RTX) of `seq` of `ssrc` arrived. */
  recovered(ssrc: number, seq: number): void {
    this.streams.get(ssrc)?.missing.delete(seq);
  }

  /** What is still missing, per SSRC (tests). */
  missing(ssrc: number): number[] {
    return [...(this.streams.get(ssrc)?.missing.keys() ?? [])];
  }

  /** Asks for what is due: never asked, or last asked NACK_RETRY_MS ago; gives up after NACK_MAX_TRIES. */
  tick(): void {
    const now = this.clock.now();
    let left = 0;
    for (const [ssrc, s] of this.streams) {
      const due: number[] = [];
      for (const [seq, m] of s.missing) {
        if (now - m.lastAt < NACK_RETRY_MS) continue;
        if (m.tries >= NACK_MAX_TRIES) {
          s.missing.delete(seq);
          continue;
        }
        m.tries++;
        m.lastAt = now;
        due.push(seq);
      }
      left += s.missing.size;
      if (due.length) this.send(ssrc, due);
    }
    if (left === 0) this.stop();
  }

  close(): void {
    this.stop();
    this.streams.clear();
  }

  private start(): void {
    if (this.timer === null) this.timer = this.clock.setInterval(() => this.tick(), NACK_TICK_MS);
  }

  private stop(): void {
    if (this.timer !== null) this.clock.clearInterval(this.timer);
    this.timer = null;
  }
}

type Extensions = Record<string, unknown>;

/** The parts of werift's RTCRtpReceiver the lean path reads (checked on each receiver before it is used). */
interface Receiver {
  stopped: boolean;
  codecs: Record<number, { name: string }>;
  remoteStreams: Record<number, { add(packet: werift.RtpPacket): void }>;
  ssrcByRtx: Record<number, number>;
  receiverTWCC?: { handleTWCC(sequenceNumber: unknown): void };
  twccEnabled: unknown;
  nackEnabled: unknown;
  nack: { addPacket(packet: werift.RtpPacket): void; close(): void };
  nackCountBySsrc: Record<number, number>;
  rtcpSsrc: number;
  rtcpRunning: boolean;
  dtlsTransport: { sendRtcp(packets: unknown[]): Promise<unknown> };
  setupTWCC(ssrc: number): void;
  runRtcp(): Promise<void>;
  stop(): void;
}
type Track = { kind: string; onReceiveRtp: { execute(packet: werift.RtpPacket, extensions: Extensions): void } };
type HandleRtp = (this: Receiver, packet: werift.RtpPacket, extensions: Extensions, track?: Track) => void;

const TWCC_URI = werift.RTP_EXTENSION_URI.transportWideCC;
const LEAN = Symbol.for('beseda.sfu.leanReceive');
const ORIGINAL = Symbol.for('beseda.sfu.weriftHandleRtp');

/** `video`: whether NACK is negotiated (werift's nackEnabled, which sorts the codecs at every read). */
type Lean = { tracker: NackTracker; nack: boolean | null; twcc: boolean } | false;
type Holder = {
  handleRTP: HandleRtp;
  [ORIGINAL]?: HandleRtp;
  stop: () => void;
  prepareReceive: (params: unknown) => void;
};
type Marked = Receiver & { [LEAN]?: Lean };

const codecKinds = new WeakMap<object, 'rtx' | 'red' | 'media'>();
function kindOf(codec: { name: string }): 'rtx' | 'red' | 'media' {
  let kind = codecKinds.get(codec);
  if (!kind) {
    const name = codec.name.toLowerCase();
    kind = name === 'rtx' ? 'rtx' : name === 'red' ? 'red' : 'media';
    codecKinds.set(codec, kind);
  }
  return kind;
}

/** Whether this receiver has what the lean path reads, as werift 0.24 has it; otherwise werift's path runs. */
function fits(r: Receiver): boolean {
  return (
    typeof r.codecs === 'object' &&
    typeof r.remoteStreams === 'object' &&
    typeof r.ssrcByRtx === 'object' &&
    typeof r.nack?.addPacket === 'function' &&
    typeof r.nackCountBySsrc === 'object' &&
    typeof r.dtlsTransport?.sendRtcp === 'function' &&
    typeof r.runRtcp === 'function' &&
    typeof r.setupTWCC === 'function' &&
    typeof r.rtcpRunning === 'boolean'
  );
}

function leanOf(r: Marked): Lean {
  let lean = r[LEAN];
  if (lean !== undefined) return lean;
  if (!fits(r)) {
    r[LEAN] = false;
    return false;
  }
  const tracker = new NackTracker((ssrc, lost) => {
    r.nackCountBySsrc[ssrc] = (r.nackCountBySsrc[ssrc] ?? 0) + 1;
    const feedback = new werift.GenericNack({ senderSsrc: r.rtcpSsrc, mediaSourceSsrc: ssrc, lost });
    r.dtlsTransport.sendRtcp([new werift.RtcpTransportLayerFeedback({ feedback })]).catch(() => {});
  }, receiverClock);
  // werift's handler sees no packet from now on: its loop would only ask for what it misread as lost.
  r.nack.addPacket = () => {};
  lean = { tracker, nack: null, twcc: false };
  r[LEAN] = lean;
  return lean;
}

function leanHandleRtp(this: Marked, packet: werift.RtpPacket, extensions: Extensions, track?: Track): void {
  const original = (werift.RTCRtpReceiver.prototype as unknown as Holder)[ORIGINAL] as HandleRtp;
  const lean = leanOf(this);
  if (!lean || this.stopped) {
    original.call(this, packet, extensions, track);
    return;
  }
  const codec = this.codecs[packet.header.payloadType];
  if (!codec) return;
  const { ssrc, sequenceNumber } = packet.header;
  const kind = kindOf(codec);
  const stats = this.remoteStreams[ssrc];
  if (lean.nack === null) {
    lean.nack = !!this.nackEnabled;
    lean.twcc = !!this.twccEnabled;
  }
  const video = track?.kind === 'video' && lean.nack;
  if (kind === 'rtx') {
    const media = this.ssrcByRtx[ssrc];
    if (media !== undefined && packet.payload.length >= 2)
      lean.tracker.recovered(media, packet.payload.readUInt16BE(0));
    original.call(this, packet, extensions, track);
    return;
  }
  if (video) lean.tracker.observe(ssrc, sequenceNumber);
  // A stream's first packet (werift makes its statistics) and RED: werift's own code.
  if (!stats || kind === 'red') {
    original.call(this, packet, extensions, track);
    return;
  }
  stats.add(packet);
  if (this.receiverTWCC) this.receiverTWCC.handleTWCC(extensions[TWCC_URI]);
  else if (lean.twcc) this.setupTWCC(ssrc);
  // The forwarding only reads the packet, and nothing else holds it: no copy.
  track?.onReceiveRtp.execute(packet, extensions);
  if (!this.rtcpRunning) void this.runRtcp();
}

/** Whether the lean path is in place (tests, the SFU's start log). */
export function leanReceiveInstalled(): boolean {
  return (werift.RTCRtpReceiver.prototype as unknown as Holder).handleRTP === (leanHandleRtp as unknown as HandleRtp);
}

/** werift's own handleRTP, installed or not (the tests compare against it). */
export function weriftHandleRtp(): HandleRtp {
  const proto = werift.RTCRtpReceiver.prototype as unknown as Holder;
  return proto[ORIGINAL] ?? proto.handleRTP;
}

/**
 * Puts the lean path in place of werift's handleRTP, once per process (each media worker calls it too); false when
 * werift's class is not shaped as expected, and werift's code then runs as it is. Each receiver is checked again at
 * its first packet, and one that does not fit keeps werift's path.
 */
export function installLeanReceive(): boolean {
  const proto = werift.RTCRtpReceiver.prototype as unknown as Holder;
  if (proto.handleRTP === (leanHandleRtp as unknown as HandleRtp)) return true;
  if (
    typeof proto.handleRTP !== 'function' ||
    proto.handleRTP.length !== 3 ||
    typeof proto.stop !== 'function' ||
    typeof proto.prepareReceive !== 'function'
  )
    return false;
  proto[ORIGINAL] = proto.handleRTP;
  proto.handleRTP = leanHandleRtp as unknown as HandleRtp;
  const stop = proto.stop;
  proto.stop = function (this: Marked) {
    const lean = this[LEAN];
    if (lean) lean.tracker.close();
    return stop.call(this);
  };
  // A renegotiation may change the codecs: what their feedback says is read again.
  const prepare = proto.prepareReceive;
  proto.prepareReceive = function (this: Marked, params: unknown) {
    const lean = this[LEAN];
    if (lean) lean.nack = null;
    return prepare.call(this, params);
  };
  return true;
}

/** SFU_LEAN_RECEIVE: on unless off, 0, false or no. */
export function leanReceiveFromEnv(env: NodeJS.ProcessEnv): boolean {
  return !['off', '0', 'false', 'no'].includes((env.SFU_LEAN_RECEIVE ?? '').trim().toLowerCase());
}
