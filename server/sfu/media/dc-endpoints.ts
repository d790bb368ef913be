// The forwarding's endpoints (endpoints.ts) on libdatachannel through node-datachannel (SFU_TRANSPORT=datachannel).
// libdatachannel does ICE, DTLS and SRTP in native code and hands each track its decrypted RTP and RTCP as
// buffers; everything above that is here: the RTP header and its extensions read in place, simulcast layers told
// apart by the rid extension (and by SSRC once a layer's first packets named it), keyframe requests, sender
// reports, and the subscriber's RTCP (receiver reports, PLI/FIR, REMB) read for the forwarding.
//
// What libdatachannel needs to route a packet to a track is its SSRC in the session description (dc-peer.ts
// writes the SFU's own SSRCs into the offer it applies): a publisher's layers whose SSRCs the offer does not name
// (rid-only simulcast, as Chromium and the Rust SDK send it) are dropped inside libdatachannel before any of this
// code sees them.
import type { Track } from 'node-datachannel';
import type { Downstream, DownstreamFeedback, RtpView, Upstream, UpstreamLayer } from './endpoints';
import { PADDING_BYTES } from './endpoints';
import type { SendClock } from './rtp-out';

/** Header extension ids negotiated on a section (0 = not negotiated). */
export interface ExtensionIds {
  rid: number;
  audioLevel: number;
  transportCc: number;
}

/** The RTP header fields the SFU reads, with the extensions it looks for. */
export interface ParsedRtp {
  ssrc: number;
  payloadType: number;
  sequenceNumber: number;
  timestamp: number;
  marker: boolean;
  payloadStart: number;
  payloadEnd: number;
  rid: string | null;
  audioLevel: number | undefined;
  transportSeq: number;
}

/** Reads an RTP packet in place (RFC 3550, RFC 8285 one- and two-byte extensions); null when malformed. */
export function parseRtp(buf: Buffer, ids: ExtensionIds): ParsedRtp | null {
  if (buf.length < 12 || (buf[0] as number) >> 6 !== 2) return null;
  const b0 = buf[0] as number;
  const b1 = buf[1] as number;
  const cc = b0 & 0x0f;
  let offset = 12 + cc * 4;
  let rid: string | null = null;
  let audioLevel: number | undefined;
  let transportSeq = -1;
  if (b0 & 0x10) {
    if (offset + 4 > buf.length) return null;
    const profile = buf.readUInt16BE(offset);
    const end = offset + 4 + buf.readUInt16BE(offset + 2) * 4;
    if (end > buf.length) return null;
    let i = offset + 4;
    const oneByte = profile === 0xbede;
    const twoByte = (profile & 0xfff0) === 0x1000;
    while ((oneByte || twoByte) && i < end) {
      const first = buf[i] as number;
      if (first === 0) {
        i++;
        continue;
      }
      let id: number;
      let len: number;
      if (oneByte) {
        id = first >> 4;
        len = (first & 0x0f) + 1;
        if (id === 15) break;
        i++;
      } else {
        id = first;
        len = buf[i + 1] as number;
        i += 2;
      }
      if (i + len > end) break;
      if (id === ids.rid && len > 0) rid = buf.toString('latin1', i, i + len);
      else if (id === ids.audioLevel && len > 0) audioLevel = (buf[i] as number) & 0x7f;
      else if (id === ids.transportCc && len >= 2) transportSeq = buf.readUInt16BE(i);
      i += len;
    }
    offset = end;
  }
  let payloadEnd = buf.length;
  if (b0 & 0x20) payloadEnd -= buf[buf.length - 1] as number;
  if (payloadEnd < offset) return null;
  return {
    ssrc: buf.readUInt32BE(8),
    payloadType: b1 & 0x7f,
    sequenceNumber: buf.readUInt16BE(2),
    timestamp: buf.readUInt32BE(4),
    marker: (b1 & 0x80) !== 0,
    payloadStart: offset,
    payloadEnd,
    rid,
    audioLevel,
    transportSeq,
  };
}

/** RTCP is told from RTP by its packet type (RFC 5761): 192–223 in the second byte. */
export const isRtcp = (buf: Buffer): boolean =>
  buf.length >= 8 && (buf[1] as number) >= 192 && (buf[1] as number) <= 223;

/** A PLI (RFC 4585 6.3.1) from `senderSsrc` for `mediaSsrc`. */
export function pli(senderSsrc: number, mediaSsrc: number): Buffer {
  const b = Buffer.alloc(12);
  b[0] = 0x81;
  b[1] = 206;
  b.writeUInt16BE(2, 2);
  b.writeUInt32BE(senderSsrc >>> 0, 4);
  b.writeUInt32BE(mediaSsrc >>> 0, 8);
  return b;
}

class DcLayer implements UpstreamLayer {
  readonly source = this;
  listeners: Array<(rtp: RtpView, audioLevel: number | undefined) => void> = [];

  constructor(
    readonly rid: string,
    readonly ssrc: number,
  ) {}

  subscribe(onRtp: (rtp: RtpView, audioLevel: number | undefined) => void): () => void {
    this.listeners.push(onRtp);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== onRtp);
    };
  }
}

/** The receiving end of one published section: its layers, fed by the peer (dc-peer.ts) with parsed packets. */
export class DcUpstream implements Upstream {
  private readonly layers = new Map<string, DcLayer>();
  private readonly ridBySsrc = new Map<number, string>();
  private onLayerCb: ((layer: UpstreamLayer) => void) | null = null;

  constructor(
    /** Payload types of the section's media codec (VP8 or Opus); others (RTX, RED, FEC) are not forwarded. */
    private readonly payloadTypes: ReadonlySet<number>,
    /** The section announced simulcast (a=simulcast): a packet needs its rid, or its SSRC seen with one. */
    private readonly simulcast: boolean,
    private readonly sendRtcp: (bytes: Buffer) => void,
    private readonly senderSsrc: number,
  ) {}

  onLayer(cb: (layer: UpstreamLayer) => void): void {
    this.onLayerCb = cb;
    for (const l of this.layers.values()) cb(l);
  }

  requestKeyframe(ssrc: number): void {
    this.sendRtcp(pli(this.senderSsrc, ssrc));
  }

  receive(buf: Buffer, p: ParsedRtp): void {
    if (!this.payloadTypes.has(p.payloadType)) return;
    let rid = this.ridBySsrc.get(p.ssrc);
    if (rid === undefined) {
      if (p.rid !== null) rid = p.rid;
      else if (this.simulcast) return;
      else rid = '';
      this.ridBySsrc.set(p.ssrc, rid);
    }
    let layer = this.layers.get(rid);
    if (!layer || layer.ssrc !== p.ssrc) {
      layer = new DcLayer(rid, p.ssrc);
      this.layers.set(rid, layer);
      this.onLayerCb?.(layer);
    }
    const view: RtpView = {
      header: { ssrc: p.ssrc, sequenceNumber: p.sequenceNumber, timestamp: p.timestamp, marker: p.marker },
      payload: buf.subarray(p.payloadStart, p.payloadEnd),
    };
    for (const l of layer.listeners) l(view, p.audioLevel);
  }
}

/** One buffer the packets are written into before node-datachannel copies them: the send is synchronous. */
const scratch = Buffer.alloc(1500 + 64);
const SR_INTERVAL_MS = 1000;

/** The sending end of one subscriber's section: RTP written here, SRTP and the socket in libdatachannel. */
export class DcDownstream implements Downstream {
  private open = false;
  private feedback: DownstreamFeedback | null = null;
  private packets = 0;
  private octets = 0;
  private lastTimestamp = 0;
  private lastSrAt = 0;
  /** Middle 32 bits of the NTP time of each sender report sent, for the round trip (RFC 3550 6.4.1). */
  private readonly srSent = new Map<number, number>();
  private rtt = 0;

  constructor(
    private readonly track: Track,
    readonly ssrc: number,
    private readonly payloadType: number,
    /** abs-send-time extension id (0: none): a browser's receive-side estimator needs it for its REMB. */
    private readonly absSendTimeId: number,
  ) {
    this.open = track.isOpen();
    track.onOpen(() => {
      this.open = true;
    });
    track.onClosed(() => {
      this.open = false;
    });
  }

  private header(marker: boolean, pt: number, seq: number, ts: number, abs: number, padding: boolean): number {
    const b = scratch;
    b[0] = 0x80 | (padding ? 0x20 : 0) | (this.absSendTimeId ? 0x10 : 0);
    b[1] = (marker ? 0x80 : 0) | (pt & 0x7f);
    b.writeUInt16BE(seq, 2);
    b.writeUInt32BE(ts, 4);
    b.writeUInt32BE(this.ssrc, 8);
    if (!this.absSendTimeId) return 12;
    b[12] = 0xbe;
    b[13] = 0xde;
    b[14] = 0;
    b[15] = 1;
    b[16] = (this.absSendTimeId << 4) | 2;
    b[17] = (abs >>> 16) & 0xff;
    b[18] = (abs >>> 8) & 0xff;
    b[19] = abs & 0xff;
    return 20;
  }

  private transmit(length: number): void {
    try {
      this.track.sendMessageBinary(scratch.subarray(0, length));
    } catch {
      this.open = false;
    }
  }

  send(
    payload: Buffer,
    marker: boolean,
    sequenceNumber: number,
    timestamp: number,
    clock: SendClock,
    descriptor: Buffer | null,
  ): void {
    if (!this.open) return;
    const h = this.header(marker, this.payloadType, sequenceNumber, timestamp, clock.absSendTime, false);
    if (h + payload.length > scratch.length) return;
    payload.copy(scratch, h);
    if (descriptor) descriptor.copy(scratch, h);
    this.transmit(h + payload.length);
    this.packets++;
    this.octets += payload.length;
    this.lastTimestamp = timestamp;
    const now = Date.now();
    if (now - this.lastSrAt >= SR_INTERVAL_MS) {
      this.lastSrAt = now;
      this.senderReport(clock);
    }
  }

  sendPadding(sequenceNumber: number, timestamp: number, clock: SendClock): void {
    if (!this.open) return;
    const h = this.header(false, this.payloadType, sequenceNumber, timestamp, clock.absSendTime, true);
    scratch.fill(0, h, h + PADDING_BYTES - 1);
    scratch[h + PADDING_BYTES - 1] = PADDING_BYTES;
    this.transmit(h + PADDING_BYTES);
  }

  /** RFC 3550 sender report: NTP time paired with the last RTP timestamp sent, packet and octet counts. */
  private senderReport(clock: SendClock): void {
    const b = Buffer.alloc(28);
    b[0] = 0x80;
    b[1] = 200;
    b.writeUInt16BE(6, 2);
    b.writeUInt32BE(this.ssrc, 4);
    const hi = Number(clock.ntp >> 32n) >>> 0;
    const lo = Number(clock.ntp & 0xffffffffn) >>> 0;
    b.writeUInt32BE(hi, 8);
    b.writeUInt32BE(lo, 12);
    b.writeUInt32BE(this.lastTimestamp >>> 0, 16);
    b.writeUInt32BE(this.packets >>> 0, 20);
    b.writeUInt32BE(this.octets >>> 0, 24);
    const middle = (((hi & 0xffff) << 16) | (lo >>> 16)) >>> 0;
    this.srSent.set(middle, Date.now());
    if (this.srSent.size > 8) this.srSent.delete(this.srSent.keys().next().value as number);
    try {
      this.track.sendMessageBinary(b);
    } catch {
      this.open = false;
    }
  }

  listen(feedback: DownstreamFeedback): () => void {
    this.feedback = feedback;
    return () => {
      if (this.feedback === feedback) this.feedback = null;
    };
  }

  keyframeRequested(): void {
    this.feedback?.keyframeRequested();
  }

  estimate(bps: number): void {
    this.feedback?.estimate(bps);
  }

  report(fractionLost: number, jitter: number, lsr: number, dlsr: number): void {
    const sentAt = this.srSent.get(lsr);
    if (sentAt !== undefined) this.rtt = Math.max(0, Date.now() - sentAt - (dlsr / 65536) * 1000);
    this.feedback?.report(fractionLost, jitter);
  }

  rttMs(): number {
    return this.rtt;
  }

  /** libdatachannel keeps nothing for retransmission here (no NACK responder): nothing to forget. */
  dropRetransmissions(): void {}
}

/** Reads one compound RTCP packet from a subscriber and hands each part to the downstream it names. */
export function dispatchRtcp(buf: Buffer, downstreams: ReadonlyMap<number, DcDownstream>): void {
  let offset = 0;
  while (offset + 8 <= buf.length) {
    const first = buf[offset] as number;
    const pt = buf[offset + 1] as number;
    const length = (buf.readUInt16BE(offset + 2) + 1) * 4;
    if (first >> 6 !== 2 || offset + length > buf.length) return;
    const count = first & 0x1f;
    if (pt === 200 || pt === 201) {
      // SR: 20 bytes of sender info after the SSRC; RR: report blocks right after it.
      let block = offset + (pt === 200 ? 28 : 8);
      for (let i = 0; i < count && block + 24 <= offset + length; i++, block += 24) {
        const d = downstreams.get(buf.readUInt32BE(block));
        d?.report(
          buf[block + 4] as number,
          buf.readUInt32BE(block + 12),
          buf.readUInt32BE(block + 16),
          buf.readUInt32BE(block + 20),
        );
      }
    } else if (pt === 206 && length >= 12) {
      const media = buf.readUInt32BE(offset + 8);
      if (count === 1) downstreams.get(media)?.keyframeRequested();
      else if (count === 4) {
        // FIR: one 8-byte entry per SSRC.
        for (let e = offset + 12; e + 8 <= offset + length; e += 8)
          downstreams.get(buf.readUInt32BE(e))?.keyframeRequested();
      } else if (count === 15 && length >= 20 && buf.toString('latin1', offset + 12, offset + 16) === 'REMB') {
        const n = buf[offset + 16] as number;
        const exp = (buf[offset + 17] as number) >> 2;
        const mantissa = (((buf[offset + 17] as number) & 0x03) << 16) | buf.readUInt16BE(offset + 18);
        const bps = mantissa * 2 ** exp;
        for (let i = 0; i < n && offset + 20 + i * 4 + 4 <= offset + length; i++)
          downstreams.get(buf.readUInt32BE(offset + 20 + i * 4))?.estimate(bps);
      }
    }
    offset += length;
  }
}
