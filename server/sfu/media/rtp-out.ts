// Sending a forwarded RTP packet on one subscriber's werift RTCRtpSender without werift's per-packet work: its
// sendRtp builds header objects and extension lists, adds 32-bit numbers through BigInt, turns the clock into
// NTP through a string, and goes through five async functions to the socket. Here the header is written straight
// into the one buffer that is then protected in place (srtp-fast.ts) and handed to the socket. Everything werift
// keeps per sent packet stays as it was: sequence number and timestamp state, sender report counters, the
// retransmission cache that answers NACKs, and the same header extensions (mid, abs-send-time), the send time read
// as RFC 3550 says (sendClock).
import { isIP } from 'node:net';
import * as werift from 'werift';
import { packetBuffer } from './packet-slab';
import { fastSrtpOf } from './srtp-fast';

const URI = werift.RTP_EXTENSION_URI;
/** werift's RTP_HISTORY_SIZE: how many sent packets its sender keeps for NACKs. */
const HISTORY = 128;
const ONE_BYTE_PROFILE = 0xbede;
/** Date.UTC(1900, 0, 1): NTP's epoch in Unix milliseconds. */
const NTP_EPOCH_MS = Date.UTC(1900, 0, 1);

/** The send time of a fan-out: taken once per incoming packet and shared by all its copies. */
export interface SendClock {
  /** NTP time, 32.32 (werift's sender reports pair it with the last RTP timestamp sent). */
  ntp: bigint;
  /** The abs-send-time extension value: bits 6.18 of the NTP time (24 bits). */
  absSendTime: number;
}

/**
 * The send time as RFC 3550 NTP (seconds and a binary fraction of 2^32) and as abs-send-time (6.18 fixed point).
 * werift's own ntpTime() puts the fraction's decimal digits where the binary fraction belongs, so every packet of
 * a second carried nearly the same abs-send-time: Chromium's receive-side estimator then saw one packet group per
 * second and its REMB followed the link by tens of seconds. Padding sent through werift gets this value too
 * (forwarding.ts), and sender reports pair it with the last RTP timestamp.
 */
export function sendClock(nowMs = performance.timeOrigin + performance.now()): SendClock {
  const ms = nowMs - NTP_EPOCH_MS;
  const seconds = Math.floor(ms / 1000);
  const fraction = Math.min(0xffffffff, Math.floor(((ms - seconds * 1000) / 1000) * 2 ** 32)) >>> 0;
  return {
    ntp: (BigInt(seconds >>> 0) << 32n) | BigInt(fraction),
    absSendTime: ((seconds & 0x3f) << 18) | (fraction >>> 14),
  };
}

type ExtensionKind = 'bytes' | 'absSendTime';

interface ExtensionSlot {
  id: number;
  kind: ExtensionKind;
  bytes: Buffer;
}

/**
 * The header extensions werift's sender writes on each packet, in id order: mid, rid and repaired rid when set,
 * abs-send-time. null when a negotiated extension needs werift's own sender (transport-wide sequence numbers).
 */
export function extensionLayout(
  headerExtensions: readonly { uri: string; id: number }[],
  ids: { mid?: string; rid?: string; repairedRid?: string },
): ExtensionSlot[] | null {
  const slots: ExtensionSlot[] = [];
  for (const ext of headerExtensions) {
    switch (ext.uri) {
      case URI.sdesMid:
        if (ids.mid) slots.push({ id: ext.id, kind: 'bytes', bytes: Buffer.from(ids.mid) });
        break;
      case URI.sdesRTPStreamID:
        if (ids.rid) slots.push({ id: ext.id, kind: 'bytes', bytes: Buffer.from(ids.rid) });
        break;
      case URI.repairedRtpStreamId:
        if (ids.repairedRid) slots.push({ id: ext.id, kind: 'bytes', bytes: Buffer.from(ids.repairedRid) });
        break;
      case URI.transportWideCC:
        return null;
      case URI.absSendTime:
        slots.push({ id: ext.id, kind: 'absSendTime', bytes: Buffer.alloc(0) });
        break;
    }
  }
  // One-byte header extensions (RFC 8285) as werift writes them: ids 1-14, 1-16 bytes each.
  if (slots.some((s) => s.id < 1 || s.id > 14 || (s.kind === 'bytes' && (s.bytes.length < 1 || s.bytes.length > 16))))
    return null;
  return slots.sort((a, b) => a.id - b.id);
}

/** Header length with these extensions. */
export function headerLength(slots: readonly ExtensionSlot[]): number {
  if (slots.length === 0) return 12;
  let size = 0;
  for (const s of slots) size += 1 + (s.kind === 'absSendTime' ? 3 : s.bytes.length);
  return 12 + 4 + Math.ceil(size / 4) * 4;
}

/** Writes the RTP header werift's serializer would write for this packet; returns its length. */
export function writeRtpHeader(
  out: Buffer,
  slots: readonly ExtensionSlot[],
  marker: boolean,
  payloadType: number,
  sequenceNumber: number,
  timestamp: number,
  ssrc: number,
  absSendTime: number,
): number {
  out[0] = slots.length > 0 ? 0x90 : 0x80;
  out[1] = (marker ? 0x80 : 0) | (payloadType & 0x7f);
  out.writeUInt16BE(sequenceNumber, 2);
  out.writeUInt32BE(timestamp, 4);
  out.writeUInt32BE(ssrc, 8);
  if (slots.length === 0) return 12;
  out.writeUInt16BE(ONE_BYTE_PROFILE, 12);
  let offset = 16;
  for (const s of slots) {
    if (s.kind === 'absSendTime') {
      out[offset++] = (s.id << 4) | 2;
      out[offset++] = (absSendTime >>> 16) & 0xff;
      out[offset++] = (absSendTime >>> 8) & 0xff;
      out[offset++] = absSendTime & 0xff;
    } else {
      out[offset++] = (s.id << 4) | (s.bytes.length - 1);
      offset += s.bytes.copy(out, offset);
    }
  }
  const words = Math.ceil((offset - 16) / 4);
  out.writeUInt16BE(words, 14);
  const end = 16 + words * 4;
  out.fill(0, offset, end);
  return end;
}

/** A copy of the payload with its first bytes replaced by `descriptor`. */
export function withDescriptor(payload: Buffer, descriptor: Buffer): Buffer {
  const out = Buffer.from(payload);
  descriptor.copy(out);
  return out;
}

/** A sent packet as werift's retransmission cache holds it; the header object is made only if a NACK asks. */
class SentPacket {
  sequenceNumber = 0;
  timestamp = 0;
  marker = false;
  payloadType = 0;
  ssrc = 0;
  absSendTime = 0;
  slots: readonly ExtensionSlot[] = [];
  private source: Buffer = Buffer.alloc(0);
  /** The descriptor sent in place of the payload's first bytes (renumbered VP8 pictures); empty when none. */
  private readonly descriptor = Buffer.alloc(8);
  private descriptorLength = 0;
  private built: werift.RtpHeader | null = null;

  set(
    seq: number,
    ts: number,
    marker: boolean,
    pt: number,
    ssrc: number,
    absSendTime: number,
    slots: readonly ExtensionSlot[],
    payload: Buffer,
    descriptor: Buffer | null,
  ): void {
    this.sequenceNumber = seq;
    this.timestamp = ts;
    this.marker = marker;
    this.payloadType = pt;
    this.ssrc = ssrc;
    this.absSendTime = absSendTime;
    this.slots = slots;
    this.source = payload;
    this.descriptorLength = descriptor ? descriptor.copy(this.descriptor) : 0;
    this.built = null;
  }

  /** The payload as it was sent (what werift retransmits on a NACK). */
  get payload(): Buffer {
    return this.descriptorLength === 0
      ? this.source
      : withDescriptor(this.source, this.descriptor.subarray(0, this.descriptorLength));
  }

  get header(): werift.RtpHeader {
    if (this.built) return this.built;
    const abs = Buffer.from([
      (this.absSendTime >>> 16) & 0xff,
      (this.absSendTime >>> 8) & 0xff,
      this.absSendTime & 0xff,
    ]);
    this.built = new werift.RtpHeader({
      marker: this.marker,
      payloadType: this.payloadType,
      sequenceNumber: this.sequenceNumber,
      timestamp: this.timestamp,
      ssrc: this.ssrc,
      csrc: [],
      csrcLength: 0,
      extension: this.slots.length > 0,
      extensions: this.slots.map((s) => ({ id: s.id, payload: s.kind === 'absSendTime' ? abs : s.bytes })),
    });
    return this.built;
  }
}

/** werift's RTCRtpSender fields this reads and updates (src/media/rtpSender.ts). */
interface SenderState {
  dtlsTransport?: werift.RTCDtlsTransport;
  codec?: { payloadType: number };
  ssrc: number;
  mid?: string;
  rtpStreamId?: string;
  repairedRtpStreamId?: string;
  headerExtensions: { uri: string; id: number }[];
  redRedundantPayloadType?: number;
  seqOffset: number;
  timestampOffset: number;
  sequenceNumber?: number;
  timestamp?: number;
  ntpTimestamp: bigint;
  rtpTimestamp: number;
  octetCount: number;
  packetCount: number;
  headerBytesSent: number;
  rtpCache: unknown[];
  rtcpRunning: boolean;
  stopped: boolean;
  runRtcp(): Promise<void>;
}

interface IcePair {
  protocol: {
    transport?: {
      type?: string;
      closed?: boolean;
      socket?: { send(buf: Buffer, port: number, address: string): void };
    };
    sendData?: unknown;
  };
  remoteAddr: [string, number];
  packetsSent: number;
  bytesSent: number;
}

interface DtlsState {
  state: string;
  bytesSent: number;
  packetsSent: number;
  config?: { debug?: { outboundPacketLoss?: number } };
  iceTransport: {
    connection: { nominated?: IcePair; canSendApplicationData(): boolean; send(data: Buffer): Promise<void> };
  };
}

const ignore = () => {};

/** Forwards RTP on one werift sender. */
export class RtpOut {
  private slots: readonly ExtensionSlot[] | null = null;
  private slotsFor: unknown = null;
  private slotsMid: string | undefined;
  private slotsHeaderLength = 12;
  private readonly history: SentPacket[] = [];
  /** The nominated ICE pair last sent on, and whether its remote is an IP address (the socket's direct case). */
  private pair: IcePair | null = null;
  private pairIsIp = false;
  private historyNext = 0;

  constructor(private readonly sender: werift.RTCRtpSender) {}

  /**
   * Sends the payload with this header on the sender's SSRC and payload type. Falls back to werift's sendRtp where
   * this does not apply (RED, transport-cc, SRTP not ready for it).
   */
  send(
    payload: Buffer,
    marker: boolean,
    sequenceNumber: number,
    timestamp: number,
    clock: SendClock,
    descriptor: Buffer | null = null,
  ): void {
    const s = this.sender as unknown as SenderState;
    const dtls = s.dtlsTransport as unknown as DtlsState | undefined;
    if (dtls?.state !== 'connected' || !s.codec) return;
    const srtp = fastSrtpOf(s.dtlsTransport as werift.RTCDtlsTransport);
    const slots = this.extensionSlots(s);
    if (!srtp || !slots || s.redRedundantPayloadType || dtls.config?.debug?.outboundPacketLoss) {
      this.sendThroughWerift(
        descriptor ? withDescriptor(payload, descriptor) : payload,
        marker,
        sequenceNumber,
        timestamp,
      );
      return;
    }
    const seq = (sequenceNumber + s.seqOffset) & 0xffff;
    const ts = (timestamp + s.timestampOffset) >>> 0;
    const pt = s.codec.payloadType;
    const ssrc = s.ssrc;
    const hLength = this.slotsHeaderLength;
    const out = packetBuffer(hLength + payload.length + srtp.rtpOverhead);
    writeRtpHeader(out, slots, marker, pt, seq, ts, ssrc, clock.absSendTime);
    let plain = payload;
    if (descriptor) {
      // The payload is shared by every subscriber: this one's descriptor goes into its own packet buffer, which is
      // then encrypted in place.
      plain = out.subarray(hLength, hLength + payload.length);
      payload.copy(plain);
      descriptor.copy(plain);
    }
    const length = srtp.protectRtp(out, hLength, plain, ssrc, seq);
    // What werift's sendRtp records per packet.
    s.sequenceNumber = seq;
    s.timestamp = ts;
    s.ntpTimestamp = clock.ntp;
    s.rtpTimestamp = ts;
    s.octetCount += payload.length;
    s.headerBytesSent += hLength;
    s.packetCount = (s.packetCount + 1) >>> 0;
    s.rtpCache[seq % HISTORY] = this.remember(seq, ts, marker, pt, ssrc, clock.absSendTime, slots, payload, descriptor);
    if (!s.rtcpRunning && !s.stopped) s.runRtcp().catch(ignore);
    this.write(dtls, length === out.length ? out : out.subarray(0, length));
  }

  /**
   * Sends a padding-only packet (a probe): `padding` is the whole payload, its last byte the count. Not kept for
   * retransmission: a NACK for it is answered with nothing, as werift answers a sequence number it no longer holds.
   * false when this path does not apply (the caller then goes through werift).
   */
  sendPadding(padding: Buffer, sequenceNumber: number, timestamp: number, clock: SendClock): boolean {
    const s = this.sender as unknown as SenderState;
    const dtls = s.dtlsTransport as unknown as DtlsState | undefined;
    if (dtls?.state !== 'connected' || !s.codec) return true;
    const srtp = fastSrtpOf(s.dtlsTransport as werift.RTCDtlsTransport);
    const slots = this.extensionSlots(s);
    if (!srtp || !slots || s.redRedundantPayloadType || dtls.config?.debug?.outboundPacketLoss) return false;
    const seq = (sequenceNumber + s.seqOffset) & 0xffff;
    const ts = (timestamp + s.timestampOffset) >>> 0;
    const ssrc = s.ssrc;
    const hLength = this.slotsHeaderLength;
    const out = packetBuffer(hLength + padding.length + srtp.rtpOverhead);
    writeRtpHeader(out, slots, false, s.codec.payloadType, seq, ts, ssrc, clock.absSendTime);
    out[0] = (out[0] as number) | 0x20;
    const length = srtp.protectRtp(out, hLength, padding, ssrc, seq);
    s.sequenceNumber = seq;
    s.timestamp = ts;
    s.ntpTimestamp = clock.ntp;
    s.rtpTimestamp = ts;
    s.headerBytesSent += hLength;
    s.packetCount = (s.packetCount + 1) >>> 0;
    this.write(dtls, length === out.length ? out : out.subarray(0, length));
    return true;
  }

  private write(dtls: DtlsState, packet: Buffer): void {
    dtls.bytesSent += packet.length;
    dtls.packetsSent++;
    const connection = dtls.iceTransport.connection;
    const pair = connection.nominated;
    if (pair !== this.pair) {
      this.pair = pair ?? null;
      this.pairIsIp = pair ? isIP(pair.remoteAddr[0]) !== 0 : false;
    }
    const transport = pair?.protocol.transport;
    // The plain UDP case straight to the socket, as werift's UdpTransport.send does for an IP address.
    if (pair && this.pairIsIp && transport?.type === 'udp' && transport.socket && !transport.closed) {
      if (!connection.canSendApplicationData()) return;
      transport.socket.send(packet, pair.remoteAddr[1], pair.remoteAddr[0]);
      pair.packetsSent++;
      pair.bytesSent += packet.length;
      return;
    }
    connection.send(packet).catch(ignore);
  }

  private extensionSlots(s: SenderState): readonly ExtensionSlot[] | null {
    if (this.slotsFor !== s.headerExtensions || this.slotsMid !== s.mid) {
      this.slotsFor = s.headerExtensions;
      this.slotsMid = s.mid;
      this.slots = extensionLayout(s.headerExtensions, {
        mid: s.mid,
        rid: s.rtpStreamId,
        repairedRid: s.repairedRtpStreamId,
      });
      this.slotsHeaderLength = this.slots ? headerLength(this.slots) : 12;
    }
    return this.slots;
  }

  private remember(
    seq: number,
    ts: number,
    marker: boolean,
    pt: number,
    ssrc: number,
    abs: number,
    slots: readonly ExtensionSlot[],
    payload: Buffer,
    descriptor: Buffer | null,
  ): SentPacket {
    let entry = this.history[this.historyNext];
    if (!entry) {
      entry = new SentPacket();
      this.history[this.historyNext] = entry;
    }
    this.historyNext = (this.historyNext + 1) % HISTORY;
    entry.set(seq, ts, marker, pt, ssrc, abs, slots, payload, descriptor);
    return entry;
  }

  private sendThroughWerift(payload: Buffer, marker: boolean, sequenceNumber: number, timestamp: number): void {
    const header = new werift.RtpHeader({
      marker,
      payloadType: 0,
      sequenceNumber,
      timestamp,
      ssrc: 0,
      csrc: [],
      csrcLength: 0,
      extension: false,
      extensions: [],
    });
    this.sender.sendRtp(new werift.RtpPacket(header, payload)).catch(ignore);
  }
}
