// What the forwarding (forwarding.ts) uses of a WebRTC implementation, on each side of the SFU: an Upstream is the
// receiving end of one published m-line (its simulcast layers' RTP, keyframe requests back to the publisher), a
// Downstream the sending end of one subscriber's m-line (RTP out, the subscriber's feedback in). Two
// implementations: werift (werift-endpoints.ts, the default) and libdatachannel through node-datachannel
// (dc-endpoints.ts, SFU_TRANSPORT=datachannel).
import type { SendClock } from './rtp-out';

/** The parts of an RTP packet the forwarding reads (werift's RtpPacket has this shape). */
export interface RtpView {
  header: { ssrc: number; sequenceNumber: number; timestamp: number; marker: boolean };
  /** The payload without padding. */
  payload: Buffer;
}

/** One layer (rid; '' without simulcast) of a published track as it arrives. */
export interface UpstreamLayer {
  readonly rid: string;
  /** The transport's object behind the layer: the same source announced again is not a new layer. */
  readonly source: object;
  /** The layer's SSRC when known before its first packet (0 otherwise). */
  readonly ssrc: number;
  /** `audioLevel` is the RFC 6464 level (dBov, 0–127) when the packet carries it. Returns the unsubscribe. */
  subscribe(onRtp: (rtp: RtpView, audioLevel: number | undefined) => void): () => void;
}

export interface Upstream {
  /** Each layer as it becomes known, the ones known already at once; the same rid again replaces the layer. */
  onLayer(cb: (layer: UpstreamLayer) => void): void;
  /** A PLI to the publisher for this SSRC. */
  requestKeyframe(ssrc: number): void;
}

/** The subscriber's feedback about one forwarded stream. */
export interface DownstreamFeedback {
  keyframeRequested(): void;
  /** REMB (bit/s). */
  estimate(bps: number): void;
  /** A receiver report block on this stream: fraction lost (0–255) and interarrival jitter (clock ticks). */
  report(fractionLost: number, jitter: number): void;
}

export interface Downstream {
  /** Sends one forwarded packet; `descriptor` replaces the payload's first bytes (renumbered VP8 pictures). */
  send(
    payload: Buffer,
    marker: boolean,
    sequenceNumber: number,
    timestamp: number,
    clock: SendClock,
    descriptor: Buffer | null,
  ): void;
  /** Sends a padding-only packet (probe) with this sequence number and timestamp. */
  sendPadding(sequenceNumber: number, timestamp: number, clock: SendClock): void;
  /** Feedback handlers; returns the unsubscribe. */
  listen(feedback: DownstreamFeedback): () => void;
  /** Round trip (ms) as the transport measures it, 0 when unknown. */
  rttMs(): number;
  /** Forgets packets kept for retransmission. */
  dropRetransmissions(): void;
}

/** Largest padding an RTP packet can carry (the last byte holds the count). */
export const PADDING_BYTES = 255;
export const PADDING_PAYLOAD = (() => {
  const b = Buffer.alloc(PADDING_BYTES);
  b[PADDING_BYTES - 1] = PADDING_BYTES;
  return b;
})();
