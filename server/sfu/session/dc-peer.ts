// A participant's connections on libdatachannel through node-datachannel (SFU_TRANSPORT=datachannel, experimental):
// ICE (libjuice, full ICE), DTLS, SRTP and SCTP in native code. libdatachannel applies the client's offer and keeps
// its own view of the session; the answer the client gets is written here from the offer (only VP8 and Opus,
// the extensions the SFU reads or writes, the SFU's SSRCs and stream ids on the sections it sends on) with
// libdatachannel's ICE credentials, fingerprint, DTLS role and candidates.
//
// libdatachannel routes RTP and RTCP to a track by the SSRCs the session descriptions name. The sections the SFU
// sends on get an SSRC of the SFU's own, written into the offer libdatachannel applies, so the subscriber's RTCP
// about it (receiver reports, PLI, REMB) reaches that track. A publisher's packets reach it only when its offer
// names their SSRCs: rid-only simulcast (Chromium, the Rust SDK) does not, and libdatachannel drops those layers.
//
// Each Track and DataChannel object is kept in a map for the connection's life: node-datachannel stops calling a
// track's callbacks once its JavaScript object is collected.
import { randomInt } from 'node:crypto';
import type { SessionDescription as SessionDescriptionType } from '@livekit/protocol';
import { SessionDescription } from '@livekit/protocol';
import { Audio, type DataChannel, PeerConnection, type Track, Video } from 'node-datachannel';
import type { SfuLogger } from '../logger';
import { DcDownstream, DcUpstream, dispatchRtcp, type ExtensionIds, isRtcp, parseRtp } from '../media/dc-endpoints';
import type { Downstream, Upstream } from '../media/endpoints';
import type { TrackSubscription } from '../media/forwarding';
import { TwccResponder } from '../media/twcc';
import type { IceCandidateInit, MediaPeer } from './media-peer';
import type { PeerNetwork } from './peer';
import type { SubscriberConnection } from './subscriber-peer';
import { addTransportCc, offeredExtensionId, TRANSPORT_CC_URI, TWCC_INTERVAL_MS } from './uplink-feedback';

const URI = {
  mid: 'urn:ietf:params:rtp-hdrext:sdes:mid',
  rid: 'urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id',
  repairedRid: 'urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id',
  audioLevel: 'urn:ietf:params:rtp-hdrext:ssrc-audio-level',
  absSendTime: 'http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time',
} as const;
/**
 * Extensions answered on every section of a kind, whichever way it flows, as werift's path does (peer.ts): Chromium
 * never offers again an extension an answer left out, and refuses its own simulcast offer without rid.
 */
const EXTENSIONS: Record<string, ReadonlySet<string>> = {
  audio: new Set([URI.audioLevel, URI.absSendTime]),
  video: new Set([URI.mid, URI.rid, URI.repairedRid, URI.absSendTime]),
};
const GATHER_TIMEOUT_MS = 3000;
const TRACK_TIMEOUT_MS = 3000;
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

interface OfferSection {
  kind: string;
  mid: string;
  port: number;
  direction: 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';
  /** Payload type → "VP8/90000", "opus/48000/2", … */
  rtpmap: Map<number, string>;
  fmtp: Map<number, string>;
  extmap: Map<string, number>;
  rids: string[];
  simulcast: string | null;
  rtcpRsize: boolean;
}

export function parseOffer(sdp: string): { sections: OfferSection[]; bundle: string[] } {
  const sections: OfferSection[] = [];
  let bundle: string[] = [];
  let cur: OfferSection | null = null;
  for (const line of sdp.split(/\r?\n/)) {
    if (line.startsWith('m=')) {
      const [kind = '', port = '0'] = line.slice(2).split(' ');
      cur = {
        kind,
        mid: '',
        port: Number(port),
        direction: 'sendrecv',
        rtpmap: new Map(),
        fmtp: new Map(),
        extmap: new Map(),
        rids: [],
        simulcast: null,
        rtcpRsize: false,
      };
      sections.push(cur);
      continue;
    }
    if (!cur) {
      if (line.startsWith('a=group:BUNDLE')) bundle = line.split(' ').slice(1);
      continue;
    }
    if (line.startsWith('a=mid:')) cur.mid = line.slice(6).trim();
    else if (/^a=(sendrecv|sendonly|recvonly|inactive)$/.test(line))
      cur.direction = line.slice(2) as OfferSection['direction'];
    else if (line.startsWith('a=rtpmap:')) {
      const [pt, codec] = line.slice(9).split(' ');
      cur.rtpmap.set(Number(pt), codec ?? '');
    } else if (line.startsWith('a=fmtp:')) {
      const at = line.indexOf(' ');
      cur.fmtp.set(Number(line.slice(7, at)), line.slice(at + 1));
    } else if (line.startsWith('a=extmap:')) {
      const [idPart = '', uri = ''] = line.slice(9).split(' ');
      cur.extmap.set(uri, Number(idPart.split('/')[0]));
    } else if (line.startsWith('a=rid:')) {
      const [rid, dir] = line.slice(6).split(' ');
      if (rid && dir === 'send') cur.rids.push(rid);
    } else if (line.startsWith('a=simulcast:send ')) cur.simulcast = line.slice('a=simulcast:send '.length).trim();
    else if (line === 'a=rtcp-rsize') cur.rtcpRsize = true;
  }
  return { sections, bundle };
}

/** The payload types of a section carrying the SFU's codec for its kind (VP8, Opus). */
function mediaPayloadTypes(s: OfferSection): number[] {
  const want = s.kind === 'video' ? /^vp8\/90000$/i : /^opus\/48000(\/2)?$/i;
  return [...s.rtpmap].filter(([, codec]) => want.test(codec)).map(([pt]) => pt);
}

/** ICE and DTLS parameters of libdatachannel's local description, and its candidates. */
function transportLines(localSdp: string): { ufrag: string; pwd: string; fingerprint: string; setup: string } {
  const get = (prefix: string) =>
    localSdp
      .split(/\r?\n/)
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length)
      .trim() ?? '';
  return {
    ufrag: get('a=ice-ufrag:'),
    pwd: get('a=ice-pwd:'),
    fingerprint: get('a=fingerprint:'),
    setup: get('a=setup:') || 'active',
  };
}

/**
 * Host candidates on the advertised addresses: the gathered ones on them, and for an advertised address libjuice
 * did not gather (a NAT's public address) the first gathered UDP host candidate's port on it (libjuice listens on
 * every interface).
 */
function filterCandidates(candidates: string[], network: PeerNetwork): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let template: string[] | null = null;
  for (const c of candidates) {
    const line = c.startsWith('a=') ? c.slice(2) : c;
    const parts = line.split(' ');
    const address = parts[4];
    if (parts[2]?.toLowerCase() === 'udp' && parts[7] === 'host' && !template) template = parts;
    if (!address || !network.allowedAddresses.has(address) || seen.has(`${address} ${parts[5]}`)) continue;
    seen.add(`${address} ${parts[5]}`);
    out.push(line);
  }
  if (template) {
    for (const address of network.hostAddresses) {
      if (out.some((l) => l.split(' ')[4] === address)) continue;
      const parts = [...template];
      parts[4] = address;
      out.push(parts.join(' '));
    }
  }
  return out;
}

function newPeerConnection(network: PeerNetwork): PeerConnection {
  return new PeerConnection('sfu', {
    iceServers: [],
    disableAutoNegotiation: true,
    // The first offer may carry data channels only: media added later needs the SRTP transport from the start.
    forceMediaTransport: true,
    ...(network.udpPortRange ? { portRangeBegin: network.udpPortRange[0], portRangeEnd: network.udpPortRange[1] } : {}),
  });
}

/** Candidates as gathered, and a promise for the end of gathering (or a timeout). */
class Gathering {
  readonly candidates: string[] = [];
  private done = false;
  private readonly waiters: Array<() => void> = [];

  constructor(pc: PeerConnection) {
    pc.onLocalCandidate((candidate) => this.candidates.push(candidate));
    pc.onGatheringStateChange((state) => {
      if (state !== 'complete') return;
      this.done = true;
      for (const w of this.waiters.splice(0)) w();
    });
  }

  complete(): Promise<void> {
    if (this.done) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, GATHER_TIMEOUT_MS);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

interface Placement {
  streamId: string;
  trackSid: string;
  ssrc: number;
}

export class DcPeer implements MediaPeer {
  private readonly pc: PeerConnection;
  private readonly gathering: Gathering;
  /** Every track by mid, referenced for the connection's life (see the top of this file). */
  private readonly tracks = new Map<string, Track>();
  private readonly trackWaiters = new Map<string, () => void>();
  private readonly channels = new Map<string, DataChannel>();
  private readonly upstreams = new Map<string, DcUpstream>();
  private readonly downstreams = new Map<number, DcDownstream>();
  private readonly placements = new Map<string, Placement>();
  /** The SSRC the SFU sends with on each recvonly section of the client (written into the applied offer). */
  private readonly ssrcByMid = new Map<string, number>();
  private sections: OfferSection[] = [];
  private bundle: string[] = [];
  private ids: ExtensionIds = { rid: 0, audioLevel: 0, transportCc: 0 };
  private readonly senderSsrc = randomInt(1, 0xffffffff);
  private readonly twcc = new TwccResponder(this.senderSsrc);
  private twccId: number | null = null;
  private readonly twccTimer: NodeJS.Timeout;
  private lastRtcp: Buffer | null = null;
  private readonly connectedCbs: Array<() => void> = [];
  private dataCb: ((label: string, bytes: Uint8Array) => void) | null = null;
  private closed = false;
  private version = 1;
  private readonly cname = `sfu-${randomInt(1, 0xffffffff).toString(16)}`;

  constructor(
    private readonly network: PeerNetwork,
    private readonly logger: SfuLogger,
  ) {
    this.pc = newPeerConnection(network);
    this.gathering = new Gathering(this.pc);
    this.pc.onTrack((track) => this.addTrack(track));
    this.pc.onDataChannel((dc) => {
      const label = dc.getLabel();
      this.channels.set(label, dc);
      dc.onMessage((msg) => {
        if (typeof msg === 'string') return;
        this.dataCb?.(label, msg instanceof ArrayBuffer ? new Uint8Array(msg) : msg);
      });
      dc.onClosed(() => {
        if (this.channels.get(label) === dc) this.channels.delete(label);
      });
    });
    this.pc.onStateChange((state) => {
      if (state === 'connected') for (const cb of this.connectedCbs) cb();
    });
    this.twccTimer = setInterval(() => this.flushTwcc(), TWCC_INTERVAL_MS);
    this.twccTimer.unref();
  }

  private addTrack(track: Track): void {
    const mid = track.mid();
    this.tracks.set(mid, track);
    track.onMessage((buf) => this.incoming(mid, buf));
    this.trackWaiters.get(mid)?.();
    this.trackWaiters.delete(mid);
  }

  private incoming(mid: string, buf: Buffer): void {
    if (isRtcp(buf)) {
      // A compound packet naming several of the connection's SSRCs comes once per track it names.
      if (this.lastRtcp?.equals(buf)) return;
      this.lastRtcp = buf;
      dispatchRtcp(buf, this.downstreams);
      return;
    }
    const p = parseRtp(buf, this.ids);
    if (!p) return;
    if (p.transportSeq >= 0 && this.twccId !== null) this.twcc.received(p.transportSeq, monotonicUs(), p.ssrc);
    this.upstreams.get(mid)?.receive(buf, p);
  }

  private flushTwcc(): void {
    if (this.twcc.pending === 0) return;
    const track = [...this.upstreams.keys()].map((mid) => this.tracks.get(mid)).find((t) => t?.isOpen());
    if (!track) return;
    for (const packet of this.twcc.feedback(monotonicUs())) {
      try {
        track.sendMessageBinary(packet);
      } catch {
        return;
      }
    }
  }

  private sendRtcp(mid: string, bytes: Buffer): void {
    const track = this.tracks.get(mid);
    if (!track?.isOpen()) return;
    try {
      track.sendMessageBinary(bytes);
    } catch {
      // closed meanwhile
    }
  }

  async applyOffer(sdp: string): Promise<void> {
    if (this.closed) return;
    const { sections, bundle } = parseOffer(sdp);
    this.sections = sections;
    this.bundle = bundle;
    const uriIds = new Map<string, number>();
    for (const s of sections) for (const [uri, id] of s.extmap) if (!uriIds.has(uri)) uriIds.set(uri, id);
    this.ids = {
      rid: uriIds.get(URI.rid) ?? 0,
      audioLevel: uriIds.get(URI.audioLevel) ?? 0,
      transportCc: this.network.uplinkFeedback === false ? 0 : (uriIds.get(TRANSPORT_CC_URI) ?? 0),
    };
    // The SFU's SSRC on each section it may send on, so libdatachannel routes the subscriber's RTCP about it.
    const lines: string[] = [];
    let section: OfferSection | undefined;
    let index = -1;
    for (const line of sdp.split(/\r?\n/)) {
      if (line === '') continue;
      if (line.startsWith('m=')) section = sections[++index];
      lines.push(line);
      if (section && line.startsWith('a=mid:') && section.direction === 'recvonly' && section.port !== 0) {
        let ssrc = this.ssrcByMid.get(section.mid);
        if (ssrc === undefined) {
          ssrc = randomInt(1, 0xffffffff);
          this.ssrcByMid.set(section.mid, ssrc);
        }
        lines.push(`a=ssrc:${ssrc} cname:${this.cname}`);
      }
    }
    const wanted = sections.filter(
      (s) => (s.kind === 'audio' || s.kind === 'video') && s.port !== 0 && !this.tracks.has(s.mid),
    );
    const arrived = Promise.all(
      wanted.map(
        (s) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, TRACK_TIMEOUT_MS);
            this.trackWaiters.set(s.mid, () => {
              clearTimeout(timer);
              resolve();
            });
          }),
      ),
    );
    this.pc.setRemoteDescription(`${lines.join('\r\n')}\r\n`, 'offer');
    this.pc.setLocalDescription('answer');
    await arrived;
  }

  upstream(mid: string): Upstream | null {
    const existing = this.upstreams.get(mid);
    if (existing) return existing;
    const s = this.sections.find((x) => x.mid === mid);
    if (!s || !this.tracks.has(mid)) return null;
    const up = new DcUpstream(
      new Set(mediaPayloadTypes(s)),
      s.simulcast !== null,
      (bytes) => this.sendRtcp(mid, bytes),
      this.senderSsrc,
    );
    this.upstreams.set(mid, up);
    return up;
  }

  downstream(mid: string, kind: 'audio' | 'video', streamId: string): Downstream | null {
    const s = this.sections.find((x) => x.mid === mid);
    const track = this.tracks.get(mid);
    const ssrc = this.ssrcByMid.get(mid);
    const pt = s ? mediaPayloadTypes(s)[0] : undefined;
    if (!s || s.kind !== kind || !track || ssrc === undefined || pt === undefined) return null;
    const down = new DcDownstream(track, ssrc, pt, s.extmap.get(URI.absSendTime) ?? 0);
    this.downstreams.set(ssrc, down);
    this.placements.set(mid, { streamId, trackSid: streamId.split('|')[1] ?? streamId, ssrc });
    return down;
  }

  deactivate(mid: string): void {
    const p = this.placements.get(mid);
    if (!p) return;
    this.placements.delete(mid);
    this.downstreams.delete(p.ssrc);
  }

  async answer(offerSdp: string): Promise<string> {
    await this.gathering.complete();
    const local = this.pc.localDescription()?.sdp ?? '';
    const t = transportLines(local);
    const localCandidates = local.split(/\r?\n/).filter((l) => l.startsWith('a=candidate:'));
    const candidates = filterCandidates([...localCandidates, ...this.gathering.candidates], this.network);
    const sctpPort = /a=sctp-port:(\d+)/.exec(local)?.[1] ?? '5000';
    const maxMessage = /a=max-message-size:(\d+)/.exec(local)?.[1] ?? '262144';
    const live = new Set(this.sections.filter((s) => s.port !== 0).map((s) => s.mid));
    const bundle = this.bundle.filter((mid) => live.has(mid));
    const out = [
      'v=0',
      `o=- ${this.senderSsrc} ${this.version++} IN IP4 127.0.0.1`,
      's=-',
      't=0 0',
      ...(bundle.length ? [`a=group:BUNDLE ${bundle.join(' ')}`] : []),
      'a=msid-semantic: WMS *',
    ];
    let first = true;
    for (const s of this.sections) {
      const common = [
        'c=IN IP4 0.0.0.0',
        `a=ice-ufrag:${t.ufrag}`,
        `a=ice-pwd:${t.pwd}`,
        `a=fingerprint:${t.fingerprint}`,
        `a=setup:${t.setup}`,
        `a=mid:${s.mid}`,
      ];
      const withCandidates = () => {
        if (!first || s.port === 0) return [];
        first = false;
        return [...candidates.map((c) => `a=${c}`), 'a=end-of-candidates'];
      };
      if (s.kind === 'application') {
        if (s.port === 0) {
          out.push('m=application 0 UDP/DTLS/SCTP webrtc-datachannel', 'c=IN IP4 0.0.0.0', `a=mid:${s.mid}`);
          continue;
        }
        out.push(
          'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
          ...common,
          ...withCandidates(),
          `a=sctp-port:${sctpPort}`,
          `a=max-message-size:${maxMessage}`,
        );
        continue;
      }
      const pt = mediaPayloadTypes(s)[0];
      if (s.port === 0 || pt === undefined || (s.kind !== 'audio' && s.kind !== 'video')) {
        const fmt = [...s.rtpmap.keys()][0] ?? 0;
        out.push(`m=${s.kind} 0 UDP/TLS/RTP/SAVPF ${fmt}`, 'c=IN IP4 0.0.0.0', `a=mid:${s.mid}`, 'a=inactive');
        continue;
      }
      const placement = this.placements.get(s.mid);
      const receives = s.direction === 'sendonly' || s.direction === 'sendrecv';
      const direction = receives ? 'recvonly' : s.direction === 'recvonly' && placement ? 'sendonly' : 'inactive';
      const keep = EXTENSIONS[s.kind] as ReadonlySet<string>;
      out.push(`m=${s.kind} 9 UDP/TLS/RTP/SAVPF ${pt}`, ...common, ...withCandidates());
      for (const [uri, id] of [...s.extmap].sort((a, b) => a[1] - b[1]))
        if (keep.has(uri)) out.push(`a=extmap:${id} ${uri}`);
      out.push(`a=${direction}`);
      if (direction === 'sendonly' && placement) out.push(`a=msid:${placement.streamId} ${placement.trackSid}`);
      out.push('a=rtcp-mux');
      if (s.rtcpRsize) out.push('a=rtcp-rsize');
      out.push(`a=rtpmap:${pt} ${s.rtpmap.get(pt)}`);
      if (s.kind === 'video') out.push(`a=rtcp-fb:${pt} nack`, `a=rtcp-fb:${pt} nack pli`, `a=rtcp-fb:${pt} goog-remb`);
      const fmtp = s.fmtp.get(pt);
      if (fmtp) out.push(`a=fmtp:${pt} ${fmtp}`);
      if (direction === 'recvonly' && s.simulcast && s.rids.length) {
        for (const rid of s.rids) out.push(`a=rid:${rid} recv`);
        out.push(`a=simulcast:recv ${s.simulcast}`);
      }
      if (direction === 'sendonly' && placement) {
        out.push(
          `a=ssrc:${placement.ssrc} cname:${this.cname}`,
          `a=ssrc:${placement.ssrc} msid:${placement.streamId} ${placement.trackSid}`,
        );
      }
    }
    const sdp = `${out.join('\r\n')}\r\n`;
    if (this.network.uplinkFeedback === false) return sdp;
    const id = offeredExtensionId(offerSdp);
    if (id === null) return sdp;
    const pts = new Set([...offerSdp.matchAll(/^a=rtcp-fb:(\d+) transport-cc\s*$/gm)].map((m) => m[1] as string));
    const fixed = addTransportCc(sdp, id, pts);
    this.twccId = id;
    return fixed.sdp;
  }

  async addIceCandidate(candidate: IceCandidateInit): Promise<void> {
    if (!candidate.candidate || this.closed) return;
    const mid = candidate.sdpMid ?? this.bundle[0] ?? this.sections[0]?.mid ?? '0';
    try {
      this.pc.addRemoteCandidate(candidate.candidate, mid);
    } catch (err) {
      this.logger.debug({ err: String(err) }, 'remote candidate refused');
    }
  }

  onData(cb: (label: string, bytes: Uint8Array) => void): void {
    this.dataCb = cb;
  }

  sendData(label: string, bytes: Uint8Array): void {
    const dc = this.channels.get(label);
    if (!dc?.isOpen()) return;
    try {
      dc.sendMessageBinary(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch {
      // closed meanwhile
    }
  }

  onConnected(cb: () => void): void {
    this.connectedCbs.push(cb);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.twccTimer);
    this.pc.close();
    this.upstreams.clear();
    this.downstreams.clear();
  }
}

/** The legacy flow's subscriber connection on node-datachannel: the SFU offers one sendonly section per track. */
export class DcSubscriberPeer implements SubscriberConnection {
  private readonly pc: PeerConnection;
  private readonly gathering: Gathering;
  private readonly entries = new Map<
    TrackSubscription,
    { track: Track; mid: string; ssrc: number; streamId: string; trackSid: string }
  >();
  private readonly downstreams = new Map<number, DcDownstream>();
  private readonly connectedCbs: Array<() => void> = [];
  private lastRtcp: Buffer | null = null;
  private nextMid = 0;
  private offerId = 0;
  private awaitingAnswer = false;
  private again = false;
  private readonly cname = `sfu-${randomInt(1, 0xffffffff).toString(16)}`;

  constructor(
    private readonly network: PeerNetwork,
    private readonly logger: SfuLogger,
    private readonly sendOffer: (offer: SessionDescriptionType) => void,
  ) {
    this.pc = newPeerConnection(network);
    this.gathering = new Gathering(this.pc);
    this.pc.onStateChange((state) => {
      if (state === 'connected') for (const cb of this.connectedCbs) cb();
    });
  }

  place(sub: TrackSubscription): void {
    const kind = sub.track.kind;
    const mid = String(this.nextMid++);
    const ssrc = randomInt(1, 0xffffffff);
    const pt = kind === 'video' ? 96 : 111;
    const absId = 3;
    const streamId = `${sub.track.publisherSid}|${sub.track.sid}`;
    let media: Video | Audio;
    if (kind === 'video') {
      const video = new Video(mid, 'SendOnly');
      video.addVP8Codec(pt);
      media = video;
    } else {
      const audio = new Audio(mid, 'SendOnly');
      audio.addOpusCodec(pt);
      media = audio;
    }
    media.addSSRC(ssrc, this.cname, streamId, sub.track.sid);
    media.parseSdpLine(`a=extmap:${absId} ${URI.absSendTime}`);
    const track = this.pc.addTrack(media);
    track.onMessage((buf) => {
      if (!isRtcp(buf) || this.lastRtcp?.equals(buf)) return;
      this.lastRtcp = buf;
      dispatchRtcp(buf, this.downstreams);
    });
    const down = new DcDownstream(track, ssrc, pt, absId);
    this.downstreams.set(ssrc, down);
    this.entries.set(sub, { track, mid, ssrc, streamId, trackSid: sub.track.sid });
    sub.attach(down);
    this.negotiate();
  }

  drop(sub: TrackSubscription): void {
    const entry = this.entries.get(sub);
    sub.detach();
    if (!entry) return;
    this.entries.delete(sub);
    this.downstreams.delete(entry.ssrc);
    entry.track.close();
    this.negotiate();
  }

  negotiate(): void {
    if (this.awaitingAnswer) {
      this.again = true;
      return;
    }
    this.awaitingAnswer = true;
    this.again = false;
    void this.offer().catch((err: unknown) => {
      this.awaitingAnswer = false;
      this.logger.warn({ err: String(err) }, 'subscriber offer failed');
    });
  }

  private async offer(): Promise<void> {
    this.pc.setLocalDescription('offer');
    await this.gathering.complete();
    const local = this.pc.localDescription()?.sdp ?? '';
    const candidates = filterCandidates(this.gathering.candidates, this.network);
    const midToTrackId: Record<string, string> = {};
    const byMid = new Map([...this.entries.values()].map((e) => [e.mid, e]));
    const out: string[] = [];
    let first = true;
    let entry: (typeof byMid extends Map<string, infer V> ? V : never) | undefined;
    for (const line of local.split(/\r?\n/)) {
      if (line === '' || line.startsWith('a=candidate:') || line === 'a=end-of-candidates') continue;
      if (line.startsWith('m=')) entry = undefined;
      out.push(line);
      if (line.startsWith('a=mid:')) {
        entry = byMid.get(line.slice(6).trim());
        if (entry) {
          midToTrackId[entry.mid] = entry.trackSid;
          out.push(`a=msid:${entry.streamId} ${entry.trackSid}`);
        }
        if (first) {
          first = false;
          out.push(...candidates.map((c) => `a=${c}`), 'a=end-of-candidates');
        }
      }
    }
    this.sendOffer(
      new SessionDescription({ type: 'offer', sdp: `${out.join('\r\n')}\r\n`, id: ++this.offerId, midToTrackId }),
    );
  }

  async applyAnswer(answer: SessionDescriptionType): Promise<void> {
    if (!this.awaitingAnswer || (answer.id !== 0 && answer.id !== this.offerId)) return;
    this.pc.setRemoteDescription(answer.sdp, 'answer');
    this.awaitingAnswer = false;
    if (this.again) this.negotiate();
  }

  async addIceCandidate(candidate: IceCandidateInit): Promise<void> {
    if (!candidate.candidate) return;
    try {
      this.pc.addRemoteCandidate(candidate.candidate, candidate.sdpMid ?? '0');
    } catch (err) {
      this.logger.debug({ err: String(err) }, 'remote candidate refused');
    }
  }

  onConnected(cb: () => void): void {
    this.connectedCbs.push(cb);
  }

  close(): void {
    this.entries.clear();
    this.downstreams.clear();
    this.pc.close();
  }
}
