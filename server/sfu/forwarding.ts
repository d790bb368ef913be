// Selective forwarding of one published track to its subscribers. Each subscriber gets its own copy of every RTP
// packet (werift's sender rewrites ssrc, payload type, sequence and timestamp in place) without header extensions.
import * as werift from 'werift';
import type { TrackInfo } from '@livekit/protocol';
import { isVp8KeyframeStart } from './vp8';

const KEYFRAME_REQUEST_GAP_MS = 250;
/** A first PLI can land before the subscriber's DTLS is up; ask again a little later. */
const KEYFRAME_RETRY_MS = [400, 1200, 3000];

/** livekit-client's simulcast rids, best last; '' is a track sent without simulcast. */
const LAYER_RANK: Record<string, number> = { '': 0, q: 1, h: 2, f: 3 };
/** A layer counts as live while its packets keep arriving this often. */
const LAYER_ALIVE_MS = 1000;
const LAYER_CHECK_MS = 500;

interface Layer {
  track: werift.MediaStreamTrack;
  /** From the packets themselves: werift leaves rid tracks without one. */
  ssrc: number;
  lastPacketAt: number;
  unsubscribe: () => void;
}

/**
 * A published track and the subscriptions fed from it. With simulcast the publisher sends up to three layers
 * (rids q, h, f); one of them is forwarded, the best one that is currently arriving, switching on a keyframe.
 */
export class PublishedTrack {
  readonly subscribers = new Set<TrackSubscription>();
  private readonly layers = new Map<string, Layer>();
  private current: string | null = null;
  private target: string | null = null;
  private lastLayerCheck = 0;
  private lastKeyframeRequest = 0;
  packetsIn = 0;
  packetsOut = 0;
  bytesOut = 0;

  constructor(
    readonly info: TrackInfo,
    readonly publisherSid: string,
    readonly kind: 'audio' | 'video',
    readonly transceiver: werift.RTCRtpTransceiver,
  ) {
    for (const track of transceiver.receiver.tracks) this.attachSource(track);
    // ontrack fires again on every renegotiation: one source per layer.
    transceiver.onTrack.subscribe((track) => this.attachSource(track));
  }

  get sid(): string {
    return this.info.sid;
  }

  /** The rid being forwarded ('' without simulcast), for tests and diagnostics. */
  get forwardedLayer(): string | null {
    return this.current;
  }

  /** rids whose packets are arriving now. */
  liveLayers(now = Date.now()): string[] {
    return [...this.layers].filter(([, l]) => now - l.lastPacketAt <= LAYER_ALIVE_MS).map(([rid]) => rid);
  }

  private attachSource(track: werift.MediaStreamTrack): void {
    const rid = track.rid ?? '';
    const existing = this.layers.get(rid);
    if (existing?.track === track) return;
    existing?.unsubscribe();
    const { unSubscribe } = track.onReceiveRtp.subscribe((rtp) => this.onRtp(rid, rtp));
    this.layers.set(rid, { track, ssrc: track.ssrc ?? 0, lastPacketAt: 0, unsubscribe: unSubscribe });
  }

  private onRtp(rid: string, rtp: werift.RtpPacket): void {
    this.packetsIn++;
    const now = Date.now();
    const layer = this.layers.get(rid);
    if (layer) {
      layer.lastPacketAt = now;
      layer.ssrc = rtp.header.ssrc;
    }
    if (this.current === null) {
      this.current = rid;
      this.requestKeyframe(true);
    }
    if (now - this.lastLayerCheck > LAYER_CHECK_MS) {
      this.lastLayerCheck = now;
      this.chooseLayer(now);
    }
    if (this.target !== null && rid === this.target && isVp8KeyframeStart(rtp.payload)) {
      this.current = rid;
      this.target = null;
      for (const sub of this.subscribers) sub.continueFrom(rtp);
    }
    if (rid !== this.current) return;
    for (const sub of this.subscribers) {
      if (!sub.send(rtp)) continue;
      this.packetsOut++;
      this.bytesOut += rtp.payload.length;
    }
  }

  /** Aim for the best live layer; the switch happens on its next keyframe. */
  private chooseLayer(now: number): void {
    if (this.layers.size < 2) return;
    let best: string | null = null;
    for (const [rid, layer] of this.layers) {
      if (now - layer.lastPacketAt > LAYER_ALIVE_MS) continue;
      if (best === null || (LAYER_RANK[rid] ?? 0) > (LAYER_RANK[best] ?? 0)) best = rid;
    }
    if (best === null || best === this.current) {
      this.target = null;
      return;
    }
    this.target = best;
    this.requestKeyframe(true);
  }

  requestKeyframe(force = false): void {
    if (this.kind !== 'video') return;
    const rid = this.target ?? this.current;
    const ssrc = rid === null ? undefined : this.layers.get(rid)?.ssrc;
    if (!ssrc) return;
    const now = Date.now();
    if (!force && now - this.lastKeyframeRequest < KEYFRAME_REQUEST_GAP_MS) return;
    this.lastKeyframeRequest = now;
    this.transceiver.receiver.sendRtcpPLI(ssrc).catch(() => {});
  }

  close(): void {
    for (const layer of this.layers.values()) layer.unsubscribe();
    this.layers.clear();
    for (const sub of [...this.subscribers]) sub.detach();
  }
}

export class TrackSubscription {
  transceiver: werift.RTCRtpTransceiver | null = null;
  paused = false;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribePli: (() => void) | null = null;

  constructor(
    readonly track: PublishedTrack,
    readonly subscriberSid: string,
  ) {}

  get attached(): boolean {
    return this.transceiver !== null;
  }

  attach(transceiver: werift.RTCRtpTransceiver): void {
    this.transceiver = transceiver;
    this.track.subscribers.add(this);
    this.unsubscribePli = transceiver.sender.onPictureLossIndication.subscribe(() => this.track.requestKeyframe()).unSubscribe;
    this.askForKeyframe();
  }

  /** A layer switch: the new layer's sequence numbers and timestamps continue the old ones for this receiver. */
  continueFrom(rtp: werift.RtpPacket): void {
    this.transceiver?.sender.replaceRTP({ sequenceNumber: rtp.header.sequenceNumber, timestamp: rtp.header.timestamp }, true);
  }

  askForKeyframe(): void {
    this.track.requestKeyframe(true);
    for (const ms of KEYFRAME_RETRY_MS) this.timers.push(setTimeout(() => this.track.requestKeyframe(true), ms));
  }

  /** Forwards a copy of the packet; false when paused or not placed yet. */
  send(rtp: werift.RtpPacket): boolean {
    if (this.paused || !this.transceiver) return false;
    const h = rtp.header;
    const header = new werift.RtpHeader({
      marker: h.marker,
      payloadType: h.payloadType,
      sequenceNumber: h.sequenceNumber,
      timestamp: h.timestamp,
      ssrc: h.ssrc,
      csrc: [],
      csrcLength: 0,
      extension: false,
      extensions: [],
    });
    this.transceiver.sender.sendRtp(new werift.RtpPacket(header, rtp.payload)).catch(() => {});
    return true;
  }

  detach(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    this.unsubscribePli?.();
    this.unsubscribePli = null;
    this.track.subscribers.delete(this);
    this.transceiver = null;
  }
}
