// A lightweight LiveKit participant for the capacity figures: the real signalling and ICE/DTLS/SRTP once (werift),
// then synthetic media. BENCH_SIGNAL picks the flow: `v1` (the default) is livekit-client's own, one peer connection
// on /rtc/v1 that the client offers on (the server asks for receive sections with mediaSectionsRequirement);
// `legacy` is /rtc with a publisher and a subscriber connection. As a publisher it sends a 720p30 VP8 simulcast
// camera (rids q, h, f at 720p-like packet rates and sizes, keyframes on PLI) and Opus-sized audio at 50 packets/s,
// encrypted by werift's SRTP; as a subscriber it counts what arrives at its socket without decrypting it (the RTP
// header, its padding bit and the packet's size are in the clear), so one core of clients can take in tens of
// thousands of packets per second. It can report a downlink estimate (REMB) and the loss a link of that capacity
// would cause (receiver reports), as a browser behind such a link would.
import {
  AddTrackRequest,
  ClientInfo,
  ClientInfo_SDK,
  ConnectionSettings,
  JoinRequest,
  Ping,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  SignalTarget,
  TrackSource,
  TrackType,
  TrickleRequest,
  VideoLayer,
  VideoQuality,
  WrappedJoinRequest,
} from '@livekit/protocol';
import * as werift from 'werift';
import WebSocket from 'ws';
import { createPeer, type PeerNetwork } from '../../server/sfu/session/peer';

/** The signalling flow: livekit-client's single connection (`v1`) or the legacy two (`legacy`). */
export type SignalMode = 'v1' | 'legacy';
export function signalMode(env = process.env.BENCH_SIGNAL): SignalMode {
  if (env === undefined || env === '' || env === 'v1') return 'v1';
  if (env === 'legacy') return 'legacy';
  throw new Error(`BENCH_SIGNAL=${env}: v1 or legacy`);
}

/**
 * The SRTP profiles a client offers in its DTLS handshake (BENCH_SRTP): `aes` only AES_CM_128_HMAC_SHA1_80, `gcm` only
 * AEAD_AES_128_GCM, unset werift's defaults as the media server orders them (AES_CM first). The DTLS server picks
 * from them: on every flow that is the media server, which takes AES_CM when it may.
 */
const SRTP_OFFERED: Record<string, number[]> = {
  aes: [werift.ProtectionProfileAes128CmHmacSha1_80],
  gcm: [werift.ProtectionProfileAeadAes128Gcm],
};
const PROFILE_NAMES: Record<number, string> = {
  [werift.ProtectionProfileAes128CmHmacSha1_80]: 'AES_CM_128_HMAC_SHA1_80',
  [werift.ProtectionProfileAeadAes128Gcm]: 'AEAD_AES_128_GCM',
};

/**
 * Makes a connection's DTLS offer only `profiles`: set after each description, as createPeer sets the media server's
 * order (werift reads the list when the handshake starts, after both descriptions).
 */
function offerOnly(pc: werift.RTCPeerConnection, profiles: readonly number[]): void {
  const target = pc as unknown as Record<
    'setLocalDescription' | 'setRemoteDescription',
    (...a: unknown[]) => Promise<unknown>
  >;
  for (const name of ['setLocalDescription', 'setRemoteDescription'] as const) {
    const set = target[name].bind(pc);
    target[name] = async (...args) => {
      const r = await set(...args);
      for (const t of pc.dtlsTransports) (t as unknown as { srtpProfiles: number[] }).srtpProfiles = [...profiles];
      return r;
    };
  }
}

const network: PeerNetwork = {
  hostAddresses: ['127.0.0.1'],
  allowedAddresses: new Set(['127.0.0.1']),
  udpPortRange: null,
  uplinkFeedback: false,
};

/** One simulcast layer of the synthetic 720p30 camera: packets per frame and payload bytes per packet. */
export interface LayerSpec {
  rid: 'q' | 'h' | 'f';
  width: number;
  height: number;
  bitrate: number;
  packetsPerFrame: number;
  payloadBytes: number;
}

// About what Chromium's VP8 simulcast sends for a 720p camera: 150 kbit/s, 500 kbit/s, 1.7 Mbit/s at 30 fps.
// Payload sizes differ per layer so a subscriber tells the layer from the packet's length alone.
export const LAYERS: readonly LayerSpec[] = [
  { rid: 'q', width: 320, height: 180, bitrate: 150_000, packetsPerFrame: 1, payloadBytes: 625 },
  { rid: 'h', width: 640, height: 360, bitrate: 500_000, packetsPerFrame: 2, payloadBytes: 1040 },
  { rid: 'f', width: 1280, height: 720, bitrate: 1_700_000, packetsPerFrame: 6, payloadBytes: 1180 },
];
const FPS = 30;
const AUDIO_PAYLOAD_BYTES = 100; // Opus at about 32 kbit/s in 20 ms frames
const KEYFRAME_PACKET_FACTOR = 4; // a keyframe is several times an interframe

/** Layer of a received packet from its length (SRTP: 12-byte header, abs-send-time extension 8, tag 10). */
export function layerOfLength(length: number): 'q' | 'h' | 'f' | 'audio' {
  const payload = length - 30;
  if (payload >= 1110) return 'f';
  if (payload >= 830) return 'h';
  if (payload >= 400) return 'q';
  return 'audio';
}

export interface ReceiveCounters {
  packets: number;
  bytes: number;
  audio: number;
  q: number;
  h: number;
  f: number;
  padding: number;
}

const newCounters = (): ReceiveCounters => ({ packets: 0, bytes: 0, audio: 0, q: 0, h: 0, f: 0, padding: 0 });

/** What one received video stream (one publisher's camera) brought, per layer, since the last take. */
export interface StreamCounters extends ReceiveCounters {
  publisherSid: string;
}

export class LkClient {
  /** The connection the client offers on: the only one on /rtc/v1, the publisher's on /rtc. */
  readonly pub: werift.RTCPeerConnection;
  /** The connection media arrives on: `pub` itself on /rtc/v1, the SFU-offered subscriber connection on /rtc. */
  readonly sub: werift.RTCPeerConnection;
  private ws!: WebSocket;
  sid = '';
  /** Counted at the subscriber's socket, before werift (which would decrypt and parse every packet). */
  readonly received = newCounters();
  /** Per SSRC the SFU sends on: which publisher it carries, and its counters. */
  readonly streams = new Map<number, StreamCounters>();
  private ssrcPublisher = new Map<number, string>();
  readonly sent = { audio: 0, q: 0, h: 0, f: 0 };
  private offerId = 0;
  private answerWaiters = new Map<number, (sdp: string) => void>();
  /** /rtc/v1: offers go one at a time (publishing, and the receive sections the SFU asks for). */
  private negotiation: Promise<void> = Promise.resolve();
  /** The layers' SSRCs once the camera's transceiver exists (named in offers for the native transport). */
  private layerSsrcs: { transceiver: werift.RTCRtpTransceiver; ssrcs: number[] } | null = null;
  private publishedWaiters = new Map<string, () => void>();
  private pingTimer: NodeJS.Timeout | null = null;
  private feedbackTimer: NodeJS.Timeout | null = null;
  private video: { transceiver: werift.RTCRtpTransceiver; ssrcs: number[]; seq: number[]; ts: number } | null = null;
  private audio: { transceiver: werift.RTCRtpTransceiver; ssrc: number; seq: number; ts: number } | null = null;
  private keyframeWanted = [true, true, true];
  private pictureId = 0;
  private ext = { mid: 0, rid: 0, audioMid: 0, audioLevel: 0 };
  private pt = { video: 0, audio: 0 };
  /** Bytes of probe padding received (not media: kept apart from `received`, but on the link all the same). */
  private paddingBytes = 0;
  /** Link capacity this subscriber reports (bit/s); null = none reported. */
  linkBps: number | null = null;

  constructor(
    readonly identity: string,
    readonly signal: SignalMode = signalMode(),
  ) {
    this.pub = createPeer(network);
    // A browser answers the SFU's offer as the DTLS client.
    this.sub = signal === 'v1' ? this.pub : createPeer(network, { answers: 'active' });
    const offered = SRTP_OFFERED[process.env.BENCH_SRTP ?? ''];
    if (process.env.BENCH_SRTP && !offered) throw new Error(`BENCH_SRTP=${process.env.BENCH_SRTP}: aes or gcm`);
    if (offered) for (const pc of new Set([this.pub, this.sub])) offerOnly(pc, offered);
  }

  /** The SRTP profile negotiated on the connection media arrives on (and on the publisher's, where it differs). */
  srtpProfile(): string {
    const of = (pc: werift.RTCPeerConnection) => {
      const t = pc.dtlsTransports[0] as unknown as { srtp?: { localContext?: { profile?: number } } } | undefined;
      const id = t?.srtp?.localContext?.profile;
      return id === undefined ? 'none' : (PROFILE_NAMES[id] ?? `profile ${id}`);
    };
    const sub = of(this.sub);
    const pub = of(this.pub);
    // A connection never used (a subscriber's publisher connection, a publisher's without subscriptions) says none.
    if (pub === 'none' || sub === pub) return sub;
    return sub === 'none' ? pub : `${sub} (publisher's ${pub})`;
  }

  async connect(url: string, token: string, autoSubscribe: boolean): Promise<void> {
    this.ws = new WebSocket(this.signalUrl(url, token, autoSubscribe));
    this.ws.binaryType = 'nodebuffer';
    const joined = new Promise<void>((resolve, reject) => {
      this.ws.once('error', reject);
      this.ws.on('message', (data: Buffer) => {
        const msg = SignalResponse.fromBinary(data).message;
        if (msg.case === 'join') {
          this.sid = msg.value.participant?.sid ?? '';
          resolve();
        } else this.onSignal(msg);
      });
    });
    this.sub.onIceCandidate.subscribe((c) => c && this.trickle(c, SignalTarget.SUBSCRIBER));
    this.pub.onIceCandidate.subscribe((c) => c && this.trickle(c, SignalTarget.PUBLISHER));
    await joined;
    // Without a signal message for 15 s the SFU removes a participant.
    this.pingTimer = setInterval(
      () => this.send({ case: 'pingReq', value: new Ping({ timestamp: BigInt(Date.now()) }) }),
      5000,
    );
    this.pingTimer.unref();
    this.countAtSocket();
  }

  private signalUrl(url: string, token: string, autoSubscribe: boolean): string {
    if (this.signal === 'legacy')
      return `${url}/rtc?access_token=${token}&auto_subscribe=${autoSubscribe ? 1 : 0}&protocol=16`;
    // As livekit-client 2.x does: the join request, wrapped, in the query.
    const join = new JoinRequest({
      clientInfo: new ClientInfo({ sdk: ClientInfo_SDK.JS, version: 'bench', protocol: 16 }),
      connectionSettings: new ConnectionSettings({ autoSubscribe }),
    });
    const wrapped = new WrappedJoinRequest({ joinRequest: join.toBinary() });
    return `${url}/rtc/v1?access_token=${token}&join_request=${Buffer.from(wrapped.toBinary()).toString('base64url')}`;
  }

  private send(message: SignalRequest['message']): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(new SignalRequest({ message }).toBinary());
  }

  private trickle(c: werift.RTCIceCandidate, target: SignalTarget): void {
    this.send({
      case: 'trickle',
      value: new TrickleRequest({ candidateInit: JSON.stringify(c.toJSON()), target }),
    });
  }

  private onSignal(msg: SignalResponse['message']): void {
    switch (msg.case) {
      case 'offer':
        this.answerSubscriberOffer(msg.value).catch(() => {});
        return;
      case 'answer':
        this.answerWaiters.get(msg.value.id)?.(msg.value.sdp);
        return;
      case 'trackPublished':
        this.publishedWaiters.get(msg.value.cid)?.();
        return;
      case 'mediaSectionsRequirement': {
        // /rtc/v1: receive sections for subscriptions, then an offer the SFU fills them in its answer.
        const { numAudios, numVideos } = msg.value;
        for (let i = 0; i < numAudios; i++) this.pub.addTransceiver('audio', { direction: 'recvonly' });
        for (let i = 0; i < numVideos; i++) this.pub.addTransceiver('video', { direction: 'recvonly' });
        this.negotiate().catch(() => {});
        return;
      }
      case 'trickle': {
        const pc = msg.value.target === SignalTarget.SUBSCRIBER ? this.sub : this.pub;
        void pc.addIceCandidate(JSON.parse(msg.value.candidateInit)).catch(() => {});
        return;
      }
      default:
    }
  }

  private async answerSubscriberOffer(offer: SessionDescription): Promise<void> {
    await this.sub.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    this.notePublishers(offer.sdp);
    const answer = await this.sub.createAnswer();
    await this.sub.setLocalDescription(answer);
    this.send({
      case: 'answer',
      value: new SessionDescription({ type: 'answer', sdp: this.sub.localDescription?.sdp ?? '', id: offer.id }),
    });
  }

  /** Which publisher each SSRC the SFU sends on carries: a=msid:<publisher sid>|<track sid> in its m-line. */
  private notePublishers(sdp: string): void {
    for (const section of sdp.split(/\r?\nm=/).slice(1)) {
      const msid = section.match(/a=msid:(PA_[^|\s]+)\|/)?.[1];
      const ssrc = section.match(/a=ssrc:(\d+)/)?.[1];
      if (msid && ssrc && section.startsWith('video')) this.ssrcPublisher.set(Number(ssrc), msid);
    }
  }

  /**
   * /rtc/v1: one offer and its answer, after any under way. The SFU's answer carries the sections of the tracks this
   * client subscribes to, with their SSRCs.
   */
  private negotiate(): Promise<void> {
    const run = async () => {
      const offer = await this.pub.createOffer();
      await this.pub.setLocalDescription(offer);
      const id = ++this.offerId;
      const answered = new Promise<string>((r) => this.answerWaiters.set(id, r));
      let sdp = this.pub.localDescription?.sdp ?? '';
      if (process.env.SFU_TRANSPORT === 'datachannel' && this.layerSsrcs)
        sdp = withLayerSsrcs(sdp, this.layerSsrcs.transceiver.mid ?? '0', this.layerSsrcs.ssrcs);
      this.send({ case: 'offer', value: new SessionDescription({ type: 'offer', sdp, id }) });
      const answer = await answered;
      this.answerWaiters.delete(id);
      // Before applying it: the SFU may send on the new sections while the answer is being applied.
      this.notePublishers(answer);
      await this.pub.setRemoteDescription({ type: 'answer', sdp: answer });
    };
    this.negotiation = this.negotiation.then(run, run);
    return this.negotiation;
  }

  /**
   * Counts RTP at the subscriber connection's ICE layer and drops it there (RTCP and DTLS go on to werift):
   * werift would otherwise decrypt and parse every packet, the clients' core would be the bottleneck.
   */
  private countAtSocket(): void {
    const patch = (): boolean => {
      const dtls = this.sub.getTransceivers()[0]?.dtlsTransport;
      const connection = dtls?.iceTransport.connection as unknown as {
        onData: { execute: (data: Buffer, ...rest: unknown[]) => void };
      };
      if (!connection) return false;
      const ev = connection.onData;
      const forward = ev.execute.bind(ev);
      const r = this.received;
      ev.execute = (data: Buffer, ...rest: unknown[]) => {
        const b0 = data[0] as number;
        const b1 = data[1] as number;
        if ((b0 & 0xc0) !== 0x80 || (b1 >= 192 && b1 <= 223) || data.length < 12) {
          forward(data, ...rest);
          return;
        }
        const ssrc = data.readUInt32BE(8);
        let s = this.streams.get(ssrc);
        if (!s) {
          s = { ...newCounters(), publisherSid: this.ssrcPublisher.get(ssrc) ?? '' };
          this.streams.set(ssrc, s);
        }
        // A packet can come before the description naming its publisher was read.
        if (!s.publisherSid) s.publisherSid = this.ssrcPublisher.get(ssrc) ?? '';
        if (b0 & 0x20) {
          r.padding++;
          s.padding++;
          // Probe padding takes up the emulated link as media does (reportLink).
          this.paddingBytes += data.length;
          return;
        }
        r.packets++;
        r.bytes += data.length;
        s.packets++;
        s.bytes += data.length;
        const layer = this.ssrcPublisher.has(ssrc) ? layerOfLength(data.length) : 'audio';
        r[layer]++;
        s[layer]++;
      };
      return true;
    };
    // The transport exists once the SFU's first offer was applied.
    const timer = setInterval(() => {
      if (patch()) clearInterval(timer);
    }, 20);
  }

  /** Publishes the synthetic simulcast camera and microphone (addTrack, then the offer carrying them). */
  async publish(): Promise<void> {
    const cidV = `${this.identity}-camera`;
    const cidA = `${this.identity}-mic`;
    const published = [cidV, cidA].map((cid) => new Promise<void>((r) => this.publishedWaiters.set(cid, r)));
    this.send({
      case: 'addTrack',
      value: new AddTrackRequest({
        cid: cidV,
        name: 'camera',
        type: TrackType.VIDEO,
        source: TrackSource.CAMERA,
        width: 1280,
        height: 720,
        layers: LAYERS.map(
          (l, i) =>
            new VideoLayer({
              quality: [VideoQuality.LOW, VideoQuality.MEDIUM, VideoQuality.HIGH][i],
              width: l.width,
              height: l.height,
              bitrate: l.bitrate,
            }),
        ),
      }),
    });
    this.send({
      case: 'addTrack',
      value: new AddTrackRequest({ cid: cidA, name: 'mic', type: TrackType.AUDIO, source: TrackSource.MICROPHONE }),
    });
    await Promise.all(published);
    const v = this.pub.addTransceiver('video', {
      direction: 'sendonly',
      simulcast: LAYERS.map((l) => ({ rid: l.rid, direction: 'send' as const })),
    });
    const a = this.pub.addTransceiver('audio', { direction: 'sendonly' });
    for (const [t, cid] of [
      [v, cidV],
      [a, cidA],
    ] as const) {
      t.sender.streamId = `${this.identity}-stream`;
      (t.sender as { trackId: string }).trackId = cid;
    }
    const rand = () => (Math.random() * 0xffffffff) >>> 0;
    const videoSsrcs = LAYERS.map(rand);
    // libdatachannel (SFU_TRANSPORT=datachannel) routes RTP only by SSRCs the offer names: name the layers' SSRCs
    // (the same packets either way; werift routes rid-only simulcast by the rid extension and gets the offer as before).
    this.layerSsrcs = { transceiver: v, ssrcs: videoSsrcs };
    await this.negotiate();
    const extId = (uri: string) => v.headerExtensions.find((e) => e.uri === uri)?.id ?? 0;
    this.ext = {
      mid: extId(werift.RTP_EXTENSION_URI.sdesMid),
      rid: extId(werift.RTP_EXTENSION_URI.sdesRTPStreamID),
      audioMid: a.headerExtensions.find((e) => e.uri === werift.RTP_EXTENSION_URI.sdesMid)?.id ?? 0,
      audioLevel: a.headerExtensions.find((e) => e.uri === werift.RTP_EXTENSION_URI.audioLevelIndication)?.id ?? 0,
    };
    this.pt = { video: v.sender.codec?.payloadType ?? 96, audio: a.sender.codec?.payloadType ?? 111 };
    this.video = { transceiver: v, ssrcs: videoSsrcs, seq: LAYERS.map(() => rand() & 0xffff), ts: rand() };
    // Audio on the SSRC its m-line declares (the SFU routes it by that); video by mid and rid.
    this.audio = { transceiver: a, ssrc: a.sender.ssrc, seq: rand() & 0xffff, ts: rand() };
    // PLIs from the SFU name the layer's SSRC: its next frame is a keyframe.
    const ssrcs = this.video.ssrcs;
    v.dtlsTransport.onRtcp.subscribe((packet) => {
      if (packet.type !== werift.RtcpPayloadSpecificFeedback.type) return;
      const fb = (packet as werift.RtcpPayloadSpecificFeedback).feedback;
      if (fb instanceof werift.PictureLossIndication) {
        const i = ssrcs.indexOf(fb.mediaSsrc);
        if (i >= 0) this.keyframeWanted[i] = true;
      }
    });
    await waitFor(() => v.dtlsTransport.state === 'connected', 10_000);
  }

  /** One 33-ms frame of every layer (called by the scheduler). */
  sendFrame(): void {
    const v = this.video;
    if (!v) return;
    v.ts = (v.ts + 90_000 / FPS) >>> 0;
    this.pictureId = (this.pictureId + 1) & 0x7fff;
    const dtls = v.transceiver.dtlsTransport;
    for (const [i, layer] of LAYERS.entries()) {
      const key = this.keyframeWanted[i] as boolean;
      this.keyframeWanted[i] = false;
      const count = layer.packetsPerFrame * (key ? KEYFRAME_PACKET_FACTOR : 1);
      for (let p = 0; p < count; p++) {
        const payload = Buffer.alloc(layer.payloadBytes);
        // VP8 payload descriptor (RFC 7741): X, S on the first packet, partition 0; 15-bit picture id.
        payload[0] = 0x80 | (p === 0 ? 0x10 : 0);
        payload[1] = 0x80;
        payload.writeUInt16BE(0x8000 | this.pictureId, 2);
        // VP8 frame tag: P bit 0 on a keyframe, show_frame; then the keyframe start code.
        if (p === 0) {
          payload[4] = key ? 0x10 : 0x11;
          if (key) payload.set([0x9d, 0x01, 0x2a], 7);
        }
        const seq = v.seq[i] as number;
        v.seq[i] = (seq + 1) & 0xffff;
        const header = new werift.RtpHeader({
          payloadType: this.pt.video,
          sequenceNumber: seq,
          timestamp: v.ts,
          ssrc: v.ssrcs[i] as number,
          marker: p === count - 1,
          extension: true,
          extensions: [
            { id: this.ext.mid, payload: werift.serializeSdesMid(v.transceiver.mid ?? '0') },
            { id: this.ext.rid, payload: werift.serializeSdesRTPStreamID(layer.rid) },
          ],
        });
        void dtls.sendRtp(payload, header);
        this.sent[layer.rid]++;
      }
    }
  }

  /** One 20-ms audio frame. */
  sendAudio(): void {
    const a = this.audio;
    if (!a) return;
    a.ts = (a.ts + 960) >>> 0;
    const seq = a.seq;
    a.seq = (seq + 1) & 0xffff;
    const header = new werift.RtpHeader({
      payloadType: this.pt.audio,
      sequenceNumber: seq,
      timestamp: a.ts,
      ssrc: a.ssrc,
      extension: this.ext.audioMid > 0 || this.ext.audioLevel > 0,
      extensions: [
        ...(this.ext.audioMid
          ? [{ id: this.ext.audioMid, payload: werift.serializeSdesMid(a.transceiver.mid ?? '1') }]
          : []),
        // RFC 6464 level (-50 dBov, voice activity off): the SFU reads it on every audio packet for active speakers.
        ...(this.ext.audioLevel ? [{ id: this.ext.audioLevel, payload: Buffer.of(50) }] : []),
      ],
    });
    void a.transceiver.dtlsTransport.sendRtp(Buffer.alloc(AUDIO_PAYLOAD_BYTES, 0x55), header);
    this.sent.audio++;
  }

  /**
   * Reports a downlink of `bps` as a browser behind such a link would: REMB of the capacity every 500 ms, and
   * receiver reports whose loss is what a link of that capacity drops of what arrives (bytes over the last second).
   */
  reportLink(bps: number | null): void {
    this.linkBps = bps;
    if (this.feedbackTimer) return;
    // What arrived on the link: media and probe padding alike.
    const onLink = () => this.received.bytes + this.paddingBytes;
    let lastBytes = onLink();
    let lastAt = Date.now();
    let tick = 0;
    let rate = 0;
    this.feedbackTimer = setInterval(() => {
      const cap = this.linkBps;
      const dtls = this.sub.getTransceivers()[0]?.dtlsTransport;
      if (cap === null || !dtls || dtls.state !== 'connected') return;
      const video = [...this.streams.keys()].filter((ssrc) => this.ssrcPublisher.has(ssrc));
      if (video.length === 0) return;
      const packets: werift.RtcpPacket[] = [];
      let exp = 0;
      let mantissa = Math.round(cap);
      while (mantissa >= 1 << 18) {
        mantissa = Math.floor(mantissa / 2);
        exp++;
      }
      packets.push(
        new werift.RtcpPayloadSpecificFeedback({
          feedback: new werift.ReceiverEstimatedMaxBitrate({
            senderSsrc: 1,
            mediaSsrc: 0,
            brExp: exp,
            brMantissa: mantissa,
            ssrcNum: video.length,
            ssrcFeedbacks: video,
          }),
        }),
      );
      if (++tick % 2 === 0) {
        const now = Date.now();
        rate = ((onLink() - lastBytes) * 8 * 1000) / Math.max(now - lastAt, 1);
        lastBytes = onLink();
        lastAt = now;
        const loss = rate > cap ? 1 - cap / rate : 0;
        packets.push(
          new werift.RtcpRrPacket({
            ssrc: 1,
            reports: video.map(
              (ssrc) =>
                new werift.RtcpReceiverInfo({
                  ssrc,
                  fractionLost: Math.min(255, Math.round(loss * 256)),
                  packetsLost: 0,
                  highestSequence: 0,
                  jitter: 0,
                  lsr: 0,
                  dlsr: 0,
                }),
            ),
          }),
        );
      }
      void dtls.sendRtcp(packets).catch(() => {});
    }, 500);
    this.feedbackTimer.unref();
  }

  async close(): Promise<void> {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.feedbackTimer) clearInterval(this.feedbackTimer);
    this.send({ case: 'leave', value: {} as never });
    this.ws.close();
    await Promise.all([this.pub.close(), this.sub.close()]).catch(() => {});
  }
}

export async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Sends every publisher's frames (30/s) and audio (50/s) from one timer, the publishers' phases spread over a
 * frame as independent cameras would be.
 */
export function startMedia(publishers: readonly LkClient[]): () => void {
  const start = performance.now();
  const frameMs = 1000 / FPS;
  const nextFrame = publishers.map((_, i) => start + (i * frameMs) / Math.max(publishers.length, 1));
  const nextAudio = publishers.map((_, i) => start + (i * 20) / Math.max(publishers.length, 1));
  const timer = setInterval(() => {
    const now = performance.now();
    for (const [i, p] of publishers.entries()) {
      // Catch up at most a few frames after a stall rather than bursting a second's worth.
      let n = 0;
      while ((nextFrame[i] as number) <= now && n++ < 3) {
        p.sendFrame();
        nextFrame[i] = (nextFrame[i] as number) + frameMs;
      }
      if ((nextFrame[i] as number) <= now) nextFrame[i] = now + frameMs;
      n = 0;
      while ((nextAudio[i] as number) <= now && n++ < 5) {
        p.sendAudio();
        nextAudio[i] = (nextAudio[i] as number) + 20;
      }
      if ((nextAudio[i] as number) <= now) nextAudio[i] = now + 20;
    }
  }, 5);
  return () => clearInterval(timer);
}

/** The offer with `a=ssrc` lines for the simulcast layers' SSRCs in the video section `mid`. */
export function withLayerSsrcs(sdp: string, mid: string, ssrcs: readonly number[]): string {
  const out: string[] = [];
  for (const line of sdp.split(/\r?\n/)) {
    if (line === '') continue;
    out.push(line);
    if (line === `a=mid:${mid}`) for (const ssrc of ssrcs) out.push(`a=ssrc:${ssrc} cname:bench-layers`);
  }
  return `${out.join('\r\n')}\r\n`;
}
