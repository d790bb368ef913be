// A participant on the single-peer-connection (/rtc/v1) flow. The client always offers; the server answers,
// publishes what the client sends and subscribes it to others' tracks by turning the client's recvonly m-lines
// into sendonly ones (asking for more with mediaSectionsRequirement when there are not enough).
import {
  type AddTrackRequest,
  ParticipantInfo,
  ParticipantInfo_Kind,
  ParticipantInfo_State,
  ParticipantPermission,
  SessionDescription,
  TrackInfo,
  TrackType,
} from '@livekit/protocol';
import type * as werift from 'werift';
import type { Grants } from './auth';
import { PublishedTrack, TrackSubscription } from './forwarding';
import { newSid } from './ids';
import type { SfuLogger } from './logger';
import { createPeer, type PeerNetwork } from './peer';
import { fixAnswer, type OfferedSection, parseSections } from './sdp';
import { CloseCode, type RequestMessage, type ResponseMessage, type SignalConnection } from './signal-connection';
import { SubscriberPeer } from './subscriber-peer';

/** 'single': /rtc/v1, one peer connection the client offers on; 'dual': legacy /rtc with a subscriber connection. */
export type PeerMode = 'single' | 'dual';
const SUBSCRIBER_TARGET = 1; // livekit.SignalTarget.SUBSCRIBER

export interface ParticipantHost {
  readonly network: PeerNetwork;
  readonly logger: SfuLogger;
  /** Participant info changed (tracks, mute, metadata): tell everybody. */
  participantChanged(p: Participant): void;
  trackPublished(p: Participant, track: PublishedTrack): void;
  trackUnpublished(p: Participant, track: PublishedTrack): void;
  dataReceived(p: Participant, label: string, bytes: Uint8Array): void;
  leave(p: Participant, reason: string): void;
  findTrack(trackSid: string): PublishedTrack | undefined;
}

type Kind = 'audio' | 'video';

export class Participant {
  readonly sid = newSid('PA_');
  readonly joinedAt = Date.now();
  readonly pc: werift.RTCPeerConnection;
  readonly published = new Map<string, PublishedTrack>();
  readonly subscriptions = new Map<string, TrackSubscription>();
  name: string;
  metadata: string;
  attributes: Record<string, string>;
  state = ParticipantInfo_State.JOINED;
  autoSubscribe = true;
  lastSeen = Date.now();
  reliableSequence = 0;
  private version = 1;
  private signal: SignalConnection | null = null;
  private readonly pendingByCid = new Map<string, TrackInfo>();
  /** mids whose transceiver has been used to send: never reassigned to another track. */
  private readonly usedMids = new Set<string>();
  private readonly midToTrackId = new Map<string, string>();
  private lastOffer: OfferedSection[] = [];
  private negotiation: Promise<unknown> = Promise.resolve();
  private sectionsRequested = false;
  private readonly channels = new Map<string, werift.RTCDataChannel>();
  private closed = false;
  private subscriber: SubscriberPeer | null = null;
  /** The last answer as sent to the client (after candidate filtering), for diagnostics and tests. */
  lastAnswerSdp = '';

  constructor(
    readonly grants: Grants,
    private readonly host: ParticipantHost,
    readonly mode: PeerMode = 'single',
  ) {
    this.name = grants.name;
    this.metadata = grants.metadata;
    this.attributes = { ...grants.attributes };
    this.pc = createPeer(host.network);
    this.pc.onDataChannel.subscribe((dc) => {
      this.channels.set(dc.label, dc);
      dc.onMessage.subscribe((data) => {
        if (typeof data !== 'string') this.host.dataReceived(this, dc.label, data);
      });
    });
    const refreshVideo = (state: string) => {
      if (state === 'connected') for (const sub of this.subscriptions.values()) if (sub.attached) sub.askForKeyframe();
    };
    this.pc.connectionStateChange.subscribe(refreshVideo);
    if (mode === 'dual') {
      this.subscriber = new SubscriberPeer(host.network, host.logger, (offer) =>
        this.send({ case: 'offer', value: offer }),
      );
      this.subscriber.pc.connectionStateChange.subscribe(refreshVideo);
    }
  }

  get identity(): string {
    return this.grants.identity;
  }

  get connected(): boolean {
    return this.signal?.open ?? false;
  }

  attachSignal(signal: SignalConnection): void {
    this.signal = signal;
    this.lastSeen = Date.now();
  }

  detachSignal(signal: SignalConnection): void {
    if (this.signal === signal) this.signal = null;
  }

  send(message: ResponseMessage): void {
    this.signal?.send(message);
  }

  info(): ParticipantInfo {
    return new ParticipantInfo({
      sid: this.sid,
      identity: this.identity,
      name: this.name,
      metadata: this.metadata,
      attributes: this.attributes,
      state: this.state,
      tracks: [...this.published.values()].map((t) => t.info),
      joinedAt: BigInt(Math.floor(this.joinedAt / 1000)),
      joinedAtMs: BigInt(this.joinedAt),
      version: this.version,
      isPublisher: this.published.size > 0,
      kind: ParticipantInfo_Kind.STANDARD,
      permission: new ParticipantPermission({
        canPublish: this.grants.canPublish,
        canSubscribe: this.grants.canSubscribe,
        canPublishData: this.grants.canPublishData,
        canUpdateMetadata: this.grants.canUpdateMetadata,
        hidden: this.grants.hidden,
      }),
    });
  }

  /** Clients drop a ParticipantInfo whose version is not newer than the last one seen. */
  bumpVersion(): void {
    this.version++;
  }

  handle(msg: RequestMessage): void {
    this.lastSeen = Date.now();
    switch (msg.case) {
      case 'offer':
        this.enqueue(() =>
          this.answerOffer(msg.value).catch((err: unknown) => {
            // An offer werift cannot apply leaves this peer connection unusable: end this session only.
            this.host.logger.warn({ err: String(err), participant: this.identity }, 'offer refused');
            this.signal?.close(CloseCode.invalidData, `could not apply offer: ${String(err).slice(0, 80)}`);
            this.host.leave(this, 'bad offer');
          }),
        );
        return;
      case 'answer': {
        const subscriber = this.subscriber;
        if (subscriber) this.enqueue(() => subscriber.applyAnswer(msg.value));
        return;
      }
      case 'trickle': {
        let candidate: werift.RTCIceCandidateInit;
        try {
          candidate = JSON.parse(msg.value.candidateInit) as werift.RTCIceCandidateInit;
        } catch {
          this.host.logger.debug({ participant: this.identity }, 'unparseable trickle candidate ignored');
          return;
        }
        const pc = msg.value.target === SUBSCRIBER_TARGET && this.subscriber ? this.subscriber.pc : this.pc;
        this.enqueue(() => pc.addIceCandidate(candidate).catch(() => {}));
        return;
      }
      case 'addTrack':
        this.addTrack(msg.value);
        return;
      case 'mute':
        this.setMuted(msg.value.sid, msg.value.muted);
        return;
      case 'subscription':
        for (const sid of [...msg.value.trackSids, ...msg.value.participantTracks.flatMap((pt) => pt.trackSids)]) {
          if (msg.value.subscribe) {
            const track = this.host.findTrack(sid);
            if (track) this.subscribe(track);
          } else this.unsubscribe(sid);
        }
        return;
      case 'trackSetting':
        for (const sid of msg.value.trackSids) this.subscriptions.get(sid)?.applySettings(msg.value);
        return;
      case 'leave':
        this.host.leave(this, 'client left');
        return;
      case 'ping':
        this.send({ case: 'pong', value: BigInt(Date.now()) });
        return;
      case 'pingReq':
        this.send({
          case: 'pongResp',
          value: { lastPingTimestamp: msg.value.timestamp, timestamp: BigInt(Date.now()) } as never,
        });
        return;
      case 'updateMetadata':
        if (!this.grants.canUpdateMetadata) return;
        if (msg.value.name) this.name = msg.value.name;
        if (msg.value.metadata) this.metadata = msg.value.metadata;
        Object.assign(this.attributes, msg.value.attributes);
        this.bumpVersion();
        this.host.participantChanged(this);
        return;
      default:
        // Known requests the embedded SFU has no use for (layers, sync state, simulate, …) are accepted silently.
        this.host.logger.debug({ participant: this.identity, request: msg.case }, 'signal request ignored');
    }
  }

  private enqueue(task: () => Promise<unknown>): void {
    this.negotiation = this.negotiation.then(task).then(undefined, (err: unknown) => {
      this.host.logger.warn({ err: String(err), participant: this.identity }, 'negotiation failed');
    });
  }

  private addTrack(req: AddTrackRequest): void {
    if (!this.grants.canPublish) {
      this.host.logger.info({ participant: this.identity }, 'publish refused: no canPublish grant');
      return;
    }
    const isAudio = req.type === TrackType.AUDIO;
    const info = new TrackInfo({
      sid: newSid('TR_'),
      type: req.type,
      name: req.name,
      muted: req.muted,
      width: req.width,
      height: req.height,
      source: req.source,
      disableDtx: req.disableDtx,
      stereo: req.stereo,
      disableRed: true,
      encryption: req.encryption,
      stream: req.stream,
      mimeType: isAudio ? 'audio/opus' : 'video/VP8',
      layers: req.layers,
      simulcast: req.layers.length > 1,
      audioFeatures: req.audioFeatures,
    });
    this.pendingByCid.set(req.cid, info);
    this.send({ case: 'trackPublished', value: { cid: req.cid, track: info } as never });
  }

  private setMuted(trackSid: string, muted: boolean): void {
    const track = this.published.get(trackSid);
    if (!track || track.info.muted === muted) return;
    track.info.muted = muted;
    if (!muted) track.requestKeyframe(undefined, true);
    this.bumpVersion();
    this.host.participantChanged(this);
  }

  subscribe(track: PublishedTrack): void {
    if (!this.grants.canSubscribe || track.publisherSid === this.sid || this.subscriptions.has(track.sid)) return;
    const sub = new TrackSubscription(track, this.sid);
    this.subscriptions.set(track.sid, sub);
    if (this.subscriber) this.subscriber.place(sub);
    else this.requestSections();
  }

  unsubscribe(trackSid: string): void {
    const sub = this.subscriptions.get(trackSid);
    if (!sub) return;
    if (this.subscriber) this.subscriber.drop(sub);
    else sub.detach();
    this.subscriptions.delete(trackSid);
    for (const [mid, sid] of this.midToTrackId) if (sid === trackSid) this.midToTrackId.delete(mid);
  }

  /**
   * The server cannot offer on this flow: make the client add recvonly sections (or just re-offer when free ones
   * already exist) so pending subscriptions can be placed in the next answer.
   */
  private requestSections(): void {
    if (this.sectionsRequested || this.closed || this.mode === 'dual') return;
    const pending = [...this.subscriptions.values()].filter((s) => !s.attached);
    if (pending.length === 0) return;
    const need: Record<Kind, number> = { audio: 0, video: 0 };
    for (const s of pending) need[s.track.kind]++;
    const free = this.freeSections();
    const numAudios = Math.max(0, need.audio - free.audio.length);
    const numVideos = Math.max(0, need.video - free.video.length);
    this.sectionsRequested = true;
    this.send({ case: 'mediaSectionsRequirement', value: { numAudios, numVideos } as never });
  }

  private freeSections(): Record<Kind, OfferedSection[]> {
    const free: Record<Kind, OfferedSection[]> = { audio: [], video: [] };
    for (const s of this.lastOffer) {
      if (s.direction !== 'recvonly' || s.port === 0 || this.usedMids.has(s.mid)) continue;
      if (s.kind === 'audio' || s.kind === 'video') free[s.kind].push(s);
    }
    return free;
  }

  private async answerOffer(offer: SessionDescription): Promise<void> {
    if (this.closed) return;
    const sections = parseSections(offer.sdp);
    // werift accepts nearly any text: insist on what every real offer has.
    if (offer.type !== 'offer' || sections.length === 0 || !/a=ice-ufrag:/.test(offer.sdp) || !/a=fingerprint:/.test(offer.sdp)) {
      throw new Error('not an SDP offer with media sections, ICE credentials and a DTLS fingerprint');
    }
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    this.lastOffer = sections;
    const announced = this.takePublications(sections);
    const removed = this.dropPublications(sections);
    if (this.mode === 'single') this.placeSubscriptions();
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription(answer);
    // An inactive transceiver must not be recycled by werift for a later, different m-line.
    for (const t of this.pc.getTransceivers()) t.usedForSender = true;
    const sdp = fixAnswer(this.pc.localDescription?.sdp ?? answer.sdp, this.host.network.allowedAddresses);
    this.lastAnswerSdp = sdp;
    // Others must know the tracks before their own answers carry them: announce first.
    for (const track of removed) this.host.trackUnpublished(this, track);
    for (const track of announced) this.host.trackPublished(this, track);
    this.send({
      case: 'answer',
      value: new SessionDescription({
        type: 'answer',
        sdp,
        id: offer.id,
        midToTrackId: Object.fromEntries(this.midToTrackId),
      }),
    });
    this.sectionsRequested = false;
    this.requestSections();
  }

  /** m-lines the client sends on whose msid track id is a cid from addTrack become published tracks. */
  private takePublications(sections: OfferedSection[]): PublishedTrack[] {
    const out: PublishedTrack[] = [];
    for (const s of sections) {
      if (!s.trackId || (s.direction !== 'sendonly' && s.direction !== 'sendrecv')) continue;
      const info = this.pendingByCid.get(s.trackId);
      const transceiver = this.pc.getTransceivers().find((t) => t.mid === s.mid);
      if (!info || !transceiver || (s.kind !== 'audio' && s.kind !== 'video')) continue;
      this.pendingByCid.delete(s.trackId);
      info.mid = s.mid;
      const track = new PublishedTrack(info, this.sid, s.kind, transceiver);
      this.published.set(info.sid, track);
      out.push(track);
    }
    if (out.length) this.bumpVersion();
    return out;
  }

  /** A published m-line that stopped sending (unpublishTrack removes the sender) unpublishes its track. */
  private dropPublications(sections: OfferedSection[]): PublishedTrack[] {
    const out: PublishedTrack[] = [];
    for (const track of this.published.values()) {
      const s = sections.find((x) => x.mid === track.info.mid);
      if (s && s.port !== 0 && (s.direction === 'sendonly' || s.direction === 'sendrecv')) continue;
      this.published.delete(track.sid);
      track.close();
      out.push(track);
    }
    if (out.length) {
      this.bumpVersion();
      for (const t of out) this.send({ case: 'trackUnpublished', value: { trackSid: t.sid } as never });
    }
    return out;
  }

  private placeSubscriptions(): void {
    const free = this.freeSections();
    for (const sub of this.subscriptions.values()) {
      if (sub.attached) continue;
      const section = free[sub.track.kind].shift();
      if (!section) continue;
      const transceiver = this.pc.getTransceivers().find((t) => t.mid === section.mid);
      if (!transceiver) continue;
      this.usedMids.add(section.mid);
      transceiver.setDirection('sendonly');
      // livekit-client reads "<participant sid>|<track sid>" from the stream id.
      transceiver.sender.streamId = `${sub.track.publisherSid}|${sub.track.sid}`;
      this.midToTrackId.set(section.mid, sub.track.sid);
      sub.attach(transceiver);
    }
    // Sections of tracks that went away are answered inactive (and stay in BUNDLE, see fixAnswer).
    const live = new Set(this.midToTrackId.keys());
    for (const mid of this.usedMids) {
      if (live.has(mid)) continue;
      const t = this.pc.getTransceivers().find((x) => x.mid === mid);
      if (t && t.direction !== 'inactive') t.setDirection('inactive');
    }
  }

  sendData(label: string, bytes: Uint8Array): void {
    const dc = this.channels.get(label);
    if (dc?.readyState === 'open') dc.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  disconnect(reason: string, code: number = CloseCode.normal): void {
    this.signal?.close(code, reason);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.state = ParticipantInfo_State.DISCONNECTED;
    for (const t of this.published.values()) t.close();
    for (const s of this.subscriptions.values()) s.detach();
    this.subscriptions.clear();
    this.subscriber?.close();
    this.pc.close().catch(() => {});
  }
}
