// Selective forwarding of one published track to its subscribers. Each subscriber gets its own copy of every RTP
// packet (werift's sender rewrites ssrc, payload type, sequence and timestamp in place) without header extensions.
import * as werift from 'werift';
import type { TrackInfo } from '@livekit/protocol';

const KEYFRAME_REQUEST_GAP_MS = 250;
/** A first PLI can land before the subscriber's DTLS is up; ask again a little later. */
const KEYFRAME_RETRY_MS = [400, 1200, 3000];

export class PublishedTrack {
  readonly subscribers = new Set<TrackSubscription>();
  private source: werift.MediaStreamTrack | null = null;
  private unsubscribeSource: (() => void) | null = null;
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
    // ontrack fires again on every renegotiation: keep one source per publication.
    const existing = transceiver.receiver.tracks[0];
    if (existing) this.attachSource(existing);
    transceiver.onTrack.subscribe((track) => this.attachSource(track));
  }

  get sid(): string {
    return this.info.sid;
  }

  private attachSource(track: werift.MediaStreamTrack): void {
    if (this.source === track) return;
    this.unsubscribeSource?.();
    this.source = track;
    const { unSubscribe } = track.onReceiveRtp.subscribe((rtp) => this.forward(rtp));
    this.unsubscribeSource = unSubscribe;
    this.requestKeyframe(true);
  }

  private forward(rtp: werift.RtpPacket): void {
    this.packetsIn++;
    for (const sub of this.subscribers) {
      if (!sub.send(rtp)) continue;
      this.packetsOut++;
      this.bytesOut += rtp.payload.length;
    }
  }

  requestKeyframe(force = false): void {
    if (this.kind !== 'video' || !this.source?.ssrc) return;
    const now = Date.now();
    if (!force && now - this.lastKeyframeRequest < KEYFRAME_REQUEST_GAP_MS) return;
    this.lastKeyframeRequest = now;
    this.transceiver.receiver.sendRtcpPLI(this.source.ssrc).catch(() => {});
  }

  close(): void {
    this.unsubscribeSource?.();
    this.unsubscribeSource = null;
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
