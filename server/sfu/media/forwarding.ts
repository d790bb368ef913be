// Selective forwarding of one published track to its subscribers. Each subscriber gets its own copy of every RTP
// packet (its sequence numbers and timestamps, the sender's ssrc and payload type) without the publisher's header
// extensions, written and protected in one buffer by rtp-out.ts.
// With simulcast the publisher sends up to three VP8 layers (rids q, h, f); each subscriber receives one of them:
// the best one arriving that is not above what it asked for (track settings), switched on a keyframe.
import type { TrackInfo, UpdateTrackSettings } from '@livekit/protocol';
import { AudioLevel } from './audio-level';
import type { Downstream, RtpView, Upstream, UpstreamLayer } from './endpoints';
import { LossCounter } from './loss-counter';
import { type SendClock, sendClock } from './rtp-out';
import { isVp8KeyframeStart, Vp8Renumbering } from './vp8';

const KEYFRAME_REQUEST_GAP_MS = 250;
/** A first PLI can land before the subscriber's DTLS is up; ask again a little later. */
const KEYFRAME_RETRY_MS = [400, 1200, 3000];
/** livekit-client's simulcast rids by quality; '' is a track sent without simulcast. */
const LAYER_RANK: Record<string, number> = { '': 0, q: 0, h: 1, f: 2 };
const TOP_RANK = 2;
/** A layer counts as live while its packets keep arriving this often. */
const LAYER_ALIVE_MS = 1000;
const LAYER_CHECK_MS = 500;

interface Layer {
  source: object;
  /** From the packets themselves: werift leaves rid tracks without one. */
  ssrc: number;
  lastPacketAt: number;
  loss: LossCounter;
  /** Bytes since the last bitrate measurement, and the smoothed bitrate (bit/s) of this layer. */
  bytes: number;
  bps: number;
  unsubscribe: () => void;
}

export const rank = (rid: string): number => LAYER_RANK[rid] ?? 0;
/** RTP header and SRTP tag around each payload, for the bitrates the allocator compares with the estimate. */
const PACKET_OVERHEAD_BYTES = 24;
const BITRATE_SMOOTHING = 0.5;

export class PublishedTrack {
  readonly subscribers = new Set<TrackSubscription>();
  private readonly layers = new Map<string, Layer>();
  private readonly lastKeyframeRequest = new Map<string, number>();
  private lastLayerCheck = 0;
  private lastMeasuredAt = 0;
  packetsIn = 0;
  packetsOut = 0;
  bytesOut = 0;
  /** Microphone loudness from the audio-level header extension (audio tracks only). */
  readonly audioLevel: AudioLevel | null;

  constructor(
    readonly info: TrackInfo,
    readonly publisherSid: string,
    readonly kind: 'audio' | 'video',
    readonly upstream: Upstream,
  ) {
    this.audioLevel = kind === 'audio' ? new AudioLevel() : null;
    // A layer announced again (werift's ontrack on every renegotiation) keeps one source per rid.
    upstream.onLayer((layer) => this.attachSource(layer));
  }

  get sid(): string {
    return this.info.sid;
  }

  get simulcast(): boolean {
    return this.layers.size > 1;
  }

  /** rids whose packets are arriving now. */
  liveLayers(now = Date.now()): string[] {
    return [...this.layers].filter(([, l]) => now - l.lastPacketAt <= LAYER_ALIVE_MS).map(([rid]) => rid);
  }

  private attachSource(source: UpstreamLayer): void {
    const rid = source.rid;
    const existing = this.layers.get(rid);
    if (existing?.source === source.source) return;
    existing?.unsubscribe();
    const unSubscribe = source.subscribe((rtp, level) => {
      if (level !== undefined) this.audioLevel?.observe(level);
      this.onRtp(rid, rtp);
    });
    this.layers.set(rid, {
      source: source.source,
      ssrc: source.ssrc,
      lastPacketAt: 0,
      loss: new LossCounter(),
      bytes: 0,
      bps: 0,
      unsubscribe: unSubscribe,
    });
  }

  private onRtp(rid: string, rtp: RtpView): void {
    this.packetsIn++;
    const now = Date.now();
    const layer = this.layers.get(rid);
    if (layer) {
      layer.lastPacketAt = now;
      layer.ssrc = rtp.header.ssrc;
      layer.loss.observe(rtp.header.sequenceNumber);
      layer.bytes += rtp.payload.length + PACKET_OVERHEAD_BYTES;
    }
    if (now - this.lastLayerCheck > LAYER_CHECK_MS) {
      this.lastLayerCheck = now;
      this.chooseLayers(now);
    }
    let keyframe: boolean | undefined;
    let clock: SendClock | undefined;
    for (const sub of this.subscribers) {
      // Without simulcast there is one layer: audio starts at once, video on its first keyframe.
      if (sub.layer === null && sub.targetLayer === null && !this.simulcast && !sub.congested) {
        if (this.kind === 'audio') sub.layer = rid;
        else sub.targetLayer = rid;
      }
      if (sub.targetLayer === rid) {
        keyframe ??= isVp8KeyframeStart(rtp.payload);
        if (keyframe) sub.switchTo(rid, rtp, now);
      }
      if (sub.layer !== rid) continue;
      clock ??= sendClock();
      if (!sub.send(rtp, now, clock)) continue;
      this.packetsOut++;
      this.bytesOut += rtp.payload.length;
    }
  }

  /** Updates each layer's bitrate from the bytes counted since the last call (the bandwidth round, room.ts). */
  measureBitrates(now = Date.now()): void {
    const seconds = (now - this.lastMeasuredAt) / 1000;
    this.lastMeasuredAt = now;
    if (seconds <= 0 || seconds > 5) {
      for (const l of this.layers.values()) l.bytes = 0;
      return;
    }
    for (const l of this.layers.values()) {
      const bps = (l.bytes * 8) / seconds;
      l.bytes = 0;
      l.bps = l.bps === 0 ? bps : l.bps * (1 - BITRATE_SMOOTHING) + bps * BITRATE_SMOOTHING;
    }
  }

  /** Live layers, lowest first, with their bitrates (bit/s). */
  liveBitrates(now = Date.now()): Array<{ rid: string; bps: number }> {
    return this.liveLayers(now)
      .sort((a, b) => rank(a) - rank(b))
      .map((rid) => ({ rid, bps: this.layers.get(rid)?.bps ?? 0 }));
  }

  /** Point every subscriber at the best live layer it accepts; the switch happens on that layer's next keyframe. */
  chooseLayers(now = Date.now()): void {
    if (!this.simulcast) return;
    const live = this.liveLayers(now).sort((a, b) => rank(a) - rank(b));
    if (live.length === 0) return;
    for (const sub of this.subscribers) {
      if (sub.congested) {
        // Paused for bandwidth (down-tracks.ts): nothing is forwarded until it resumes on a keyframe.
        sub.layer = null;
        sub.targetLayer = null;
        continue;
      }
      const cap = Math.min(sub.maxRank, sub.bandwidthRank);
      const wanted = live.filter((rid) => rank(rid) <= cap).at(-1) ?? (live[0] as string);
      if (wanted === sub.layer) {
        sub.targetLayer = null;
        continue;
      }
      if (sub.targetLayer !== wanted) {
        sub.targetLayer = wanted;
        this.requestKeyframe(wanted, true);
      } else {
        // Still waiting for that keyframe: the PLI or the keyframe may have been lost; ask again.
        this.requestKeyframe(wanted);
      }
    }
  }

  /** Packets expected and lost on all layers since the last call (connection quality). */
  takeLoss(): { expected: number; lost: number } {
    let expected = 0;
    let lost = 0;
    for (const l of this.layers.values()) {
      const w = l.loss.take();
      expected += w.expected;
      lost += w.lost;
    }
    return { expected, lost };
  }

  /** PLI to the publisher for one layer (or every layer someone receives or waits for). */
  requestKeyframe(rid?: string, force = false): void {
    if (this.kind !== 'video') return;
    const rids = rid !== undefined ? [rid] : this.wantedLayers();
    const now = Date.now();
    for (const r of rids) {
      const ssrc = this.layers.get(r)?.ssrc;
      if (!ssrc) continue;
      if (!force && now - (this.lastKeyframeRequest.get(r) ?? 0) < KEYFRAME_REQUEST_GAP_MS) continue;
      this.lastKeyframeRequest.set(r, now);
      this.upstream.requestKeyframe(ssrc);
    }
  }

  private wantedLayers(): string[] {
    const out = new Set<string>();
    for (const sub of this.subscribers) {
      if (sub.layer !== null) out.add(sub.layer);
      if (sub.targetLayer !== null) out.add(sub.targetLayer);
    }
    if (out.size === 0) for (const rid of this.layers.keys()) out.add(rid);
    return [...out];
  }

  close(): void {
    for (const layer of this.layers.values()) layer.unsubscribe();
    this.layers.clear();
    for (const sub of [...this.subscribers]) sub.detach();
  }
}

export class TrackSubscription {
  downstream: Downstream | null = null;
  paused = false;
  /** The layer this subscriber receives, and the one it switches to at the next keyframe. */
  layer: string | null = null;
  targetLayer: string | null = null;
  /** Highest layer it asked for (0 low … 2 high), from its track settings. */
  maxRank = TOP_RANK;
  /** Highest layer its downlink fits (layer-allocation.ts), and whether even the lowest does not (video paused). */
  bandwidthRank = TOP_RANK;
  congested = false;
  /** A REMB arrived on this subscription's sender: the subscriber's downlink estimate (bit/s). */
  onEstimate: ((bps: number) => void) | null = null;
  /** The last forwarded packet ended a frame: padding may go in here without splitting a frame. */
  private betweenFrames = false;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribeFeedback: (() => void) | null = null;
  private lastReport: { loss: number; jitterMs: number; at: number } | null = null;
  private lossTakenAt = 0;
  /** Rewriting of sequence numbers and timestamps so layer switches look like one stream to the receiver. */
  private seqOffset = 0;
  private tsOffset = 0;
  private lastSeq = 0;
  private lastTs = 0;
  private lastSentAt = 0;
  private sentAny = false;
  /** VP8 picture numbering continued across layer switches (video only). */
  private readonly pictures: Vp8Renumbering | null;

  constructor(
    readonly track: PublishedTrack,
    readonly subscriberSid: string,
  ) {
    this.pictures = track.kind === 'video' ? new Vp8Renumbering() : null;
  }

  private get clockRate(): number {
    return this.track.kind === 'audio' ? 48000 : 90000;
  }

  get attached(): boolean {
    return this.downstream !== null;
  }

  attach(downstream: Downstream): void {
    this.downstream = downstream;
    this.track.subscribers.add(this);
    const clockRate = this.clockRate;
    this.unsubscribeFeedback = downstream.listen({
      keyframeRequested: () => this.track.requestKeyframe(this.layer ?? this.targetLayer ?? undefined),
      estimate: (bps) => this.onEstimate?.(bps),
      report: (fractionLost, jitter) => {
        this.lastReport = { loss: fractionLost / 256, jitterMs: (jitter / clockRate) * 1000, at: Date.now() };
      },
    });
    this.track.chooseLayers();
    this.askForKeyframe();
  }

  /** UpdateTrackSettings: pause, and the layer wanted (explicit quality, or the size the video is shown at). */
  applySettings(settings: UpdateTrackSettings): void {
    const wasPaused = this.paused;
    this.paused = settings.disabled;
    const layers = this.track.info.layers;
    if (settings.width > 0 && layers.length > 0) {
      // The smallest layer at least as wide as the element, as LiveKit does; the top one otherwise.
      const fit = [...layers].sort((a, b) => a.width - b.width).find((l) => l.width >= settings.width);
      this.maxRank = fit ? Math.min(fit.quality, TOP_RANK) : TOP_RANK;
    } else {
      this.maxRank = Math.min(settings.quality, TOP_RANK);
    }
    this.track.chooseLayers();
    if (wasPaused && !this.paused) this.askForKeyframe();
  }

  /**
   * A layer switch: the new layer's sequence numbers, timestamps and VP8 picture numbers continue the old ones for
   * this receiver (the next sequence number, the timestamp advanced by the time since the last packet, the next
   * picture). Kept here in 32-bit arithmetic: werift's replaceRTP keeps the timestamp offset in 16 bits, which threw the receiver's timestamps
   * thousands of seconds off after a switch and froze its video.
   */
  switchTo(rid: string, rtp: RtpView, now = Date.now()): void {
    if (this.sentAny) {
      const elapsedTicks = Math.max(1, Math.round(((now - this.lastSentAt) * this.clockRate) / 1000));
      this.seqOffset = (this.lastSeq + 1 - rtp.header.sequenceNumber) & 0xffff;
      this.tsOffset = (this.lastTs + elapsedTicks - rtp.header.timestamp) >>> 0;
    }
    this.pictures?.restart(rtp.payload);
    this.layer = rid;
    this.targetLayer = null;
  }

  /** The subscriber's latest receiver report on this track (loss 0–1, jitter), with the transport's round trip. */
  receiverReport(): { loss: number; jitterMs: number; rttMs: number } | null {
    const r = this.lastReport;
    if (!r || Date.now() - r.at > 10_000) return null;
    return {
      loss: r.loss,
      jitterMs: r.jitterMs,
      rttMs: this.downstream?.rttMs() ?? 0,
    };
  }

  /**
   * Paused for bandwidth: forget what the transport keeps for retransmission, so the subscriber's NACKs for the
   * frames cut short do not keep flooding the link it has no room on.
   */
  dropRetransmissions(): void {
    this.downstream?.dropRetransmissions();
  }

  /** Loss (0–1) in the subscriber's receiver report on this track that arrived since the last call, else null. */
  takeNewLoss(): number | null {
    const r = this.lastReport;
    if (!r || r.at <= this.lossTakenAt) return null;
    this.lossTakenAt = r.at;
    return r.loss;
  }

  askForKeyframe(): void {
    const ask = () => this.track.requestKeyframe(this.targetLayer ?? this.layer ?? undefined, true);
    ask();
    for (const ms of KEYFRAME_RETRY_MS) this.timers.push(setTimeout(ask, ms));
  }

  /** Forwards a copy of the packet; false when paused or not placed yet. `now` and `clock` are the fan-out's. */
  send(rtp: RtpView, now = Date.now(), clock: SendClock = sendClock()): boolean {
    const out = this.downstream;
    if (this.paused || !out) return false;
    const h = rtp.header;
    const sequenceNumber = (h.sequenceNumber + this.seqOffset) & 0xffff;
    const timestamp = (h.timestamp + this.tsOffset) >>> 0;
    this.lastSeq = sequenceNumber;
    this.lastTs = timestamp;
    this.lastSentAt = now;
    this.sentAny = true;
    this.betweenFrames = h.marker;
    out.send(rtp.payload, h.marker, sequenceNumber, timestamp, clock, this.pictures?.rewrite(rtp.payload) ?? null);
    return true;
  }

  /**
   * Sends `count` padding-only packets (a bandwidth probe) when the stream is between frames; they take the next
   * sequence numbers, so later media packets are shifted by as many. false when it cannot now.
   */
  sendPadding(count: number): boolean {
    const out = this.downstream;
    if (this.paused || !out || !this.sentAny) return false;
    // A paused video (bandwidth) carries only padding until it resumes on a keyframe.
    if (this.layer !== null ? !this.betweenFrames : !this.congested) return false;
    for (let i = 0; i < count; i++) {
      this.lastSeq = (this.lastSeq + 1) & 0xffff;
      this.seqOffset = (this.seqOffset + 1) & 0xffff;
      out.sendPadding(this.lastSeq, this.lastTs, sendClock());
    }
    return true;
  }

  detach(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    this.unsubscribeFeedback?.();
    this.unsubscribeFeedback = null;
    this.track.subscribers.delete(this);
    this.downstream = null;
  }
}
