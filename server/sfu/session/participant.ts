// One participant: its peer connection(s), signal connection and announced state. Publishing lives in
// up-tracks.ts, subscriptions in down-tracks.ts (placed by single-pc-placement.ts on /rtc/v1 or subscriber-peer.ts
// on legacy /rtc), and what each signal request does in signalling.ts.
import {
  type AddTrackRequest,
  ParticipantInfo,
  ParticipantInfo_Kind,
  ParticipantInfo_State,
  ParticipantPermission,
  SessionDescription,
  TrackPublishedResponse,
  TrackUnpublishedResponse,
} from '@livekit/protocol';
import type { Grants } from '../grants';
import { DownTracks } from '../media/down-tracks';
import type { PublishedTrack, TrackSubscription } from '../media/forwarding';
import { newSid } from '../ids';
import type { SfuLogger } from '../logger';
import { createMediaPeer, createSubscriberConnection } from './peer-factory';
import type { IceCandidateInit, MediaPeer } from './media-peer';
import type { PeerNetwork } from './peer';
import { parseSections } from './sdp';
import { CloseCode, type RequestMessage, type ResponseMessage, type SignalLink } from '../signal';
import { handleSignalRequest, type SignalledParticipant } from './signalling';
import { SinglePcPlacement } from './single-pc-placement';
import type { SubscriberConnection } from './subscriber-peer';
import { UpTracks } from './up-tracks';

/** 'single': /rtc/v1, one peer connection the client offers on; 'dual': legacy /rtc with a subscriber connection. */
export type PeerMode = 'single' | 'dual';

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

export class Participant implements SignalledParticipant {
  readonly sid = newSid('PA_');
  readonly joinedAt = Date.now();
  /** The connection the client offers on (werift or node-datachannel: PeerNetwork.transport). */
  readonly peer: MediaPeer;
  readonly upTracks: UpTracks;
  readonly downTracks: DownTracks;
  name: string;
  metadata: string;
  attributes: Record<string, string>;
  state = ParticipantInfo_State.JOINED;
  autoSubscribe = true;
  lastSeen = Date.now();
  reliableSequence = 0;
  private version = 1;
  private signal: SignalLink | null = null;
  private negotiation: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly singlePc: SinglePcPlacement | null = null;
  private readonly subscriber: SubscriberConnection | null = null;
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
    this.peer = createMediaPeer(host.network, host.logger);
    this.upTracks = new UpTracks(this.sid, (mid) => this.peer.upstream(mid));
    this.peer.onData((label, bytes) => this.host.dataReceived(this, label, bytes));
    const refreshVideo = () => this.downTracks.refreshVideo();
    this.peer.onConnected(refreshVideo);
    if (mode === 'dual') {
      this.subscriber = createSubscriberConnection(host.network, host.logger, (offer) =>
        this.send({ case: 'offer', value: offer }),
      );
      this.subscriber.onConnected(refreshVideo);
      this.downTracks = new DownTracks(this.sid, this.subscriber, (m) => this.send(m));
    } else {
      this.singlePc = new SinglePcPlacement(this.peer, (m) => this.send(m));
      this.downTracks = new DownTracks(this.sid, this.singlePc, (m) => this.send(m));
    }
  }

  get identity(): string {
    return this.grants.identity;
  }

  get logger(): SfuLogger {
    return this.host.logger;
  }

  get connected(): boolean {
    return this.signal?.open ?? false;
  }

  get published(): ReadonlyMap<string, PublishedTrack> {
    return this.upTracks.published;
  }

  get subscriptions(): ReadonlyMap<string, TrackSubscription> {
    return this.downTracks.subscriptions;
  }

  attachSignal(signal: SignalLink): void {
    this.signal = signal;
    this.lastSeen = Date.now();
  }

  detachSignal(signal: SignalLink): void {
    if (this.signal === signal) this.signal = null;
  }

  send(message: ResponseMessage): void {
    this.signal?.send(message);
  }

  /** A message encoded once for the whole room (room.ts broadcasts). */
  sendEncoded(bytes: Uint8Array): void {
    this.signal?.sendEncoded(bytes);
  }

  handle(msg: RequestMessage): void {
    handleSignalRequest(this, msg);
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

  // ---- operations the signal requests map to (signalling.ts) ----

  answerOffer(offer: SessionDescription): void {
    this.enqueue(() =>
      this.negotiate(offer).catch((err: unknown) => {
        // An offer werift cannot apply leaves this peer connection unusable: end this session only.
        this.host.logger.warn({ err: String(err), participant: this.identity }, 'offer refused');
        this.signal?.close(CloseCode.invalidData, `could not apply offer: ${String(err).slice(0, 80)}`);
        this.host.leave(this, 'bad offer');
      }),
    );
  }

  subscriberAnswer(answer: SessionDescription): void {
    const subscriber = this.subscriber;
    if (subscriber) this.enqueue(() => subscriber.applyAnswer(answer));
  }

  addIceCandidate(candidate: IceCandidateInit, forSubscriber: boolean): void {
    const pc = forSubscriber && this.subscriber ? this.subscriber : this.peer;
    this.enqueue(() => pc.addIceCandidate(candidate).catch(() => {}));
  }

  addTrack(req: AddTrackRequest): void {
    if (!this.grants.canPublish) {
      this.host.logger.info({ participant: this.identity }, 'publish refused: no canPublish grant');
      return;
    }
    const info = this.upTracks.add(req);
    this.send({ case: 'trackPublished', value: new TrackPublishedResponse({ cid: req.cid, track: info }) });
  }

  setMuted(trackSid: string, muted: boolean): void {
    if (!this.upTracks.setMuted(trackSid, muted)) return;
    this.bumpVersion();
    this.host.participantChanged(this);
  }

  subscribeTo(trackSid: string): void {
    const track = this.host.findTrack(trackSid);
    if (track) this.subscribe(track);
  }

  subscribe(track: PublishedTrack): void {
    if (!this.grants.canSubscribe || track.publisherSid === this.sid) return;
    this.downTracks.add(track);
  }

  unsubscribe(trackSid: string): void {
    this.downTracks.remove(trackSid);
  }

  updateMetadata(name: string, metadata: string, attributes: Record<string, string>): void {
    if (!this.grants.canUpdateMetadata) return;
    if (name) this.name = name;
    if (metadata) this.metadata = metadata;
    Object.assign(this.attributes, attributes);
    this.bumpVersion();
    this.host.participantChanged(this);
  }

  leaveRoom(reason: string): void {
    this.host.leave(this, reason);
  }

  private enqueue(task: () => Promise<unknown>): void {
    this.negotiation = this.negotiation.then(task).then(undefined, (err: unknown) => {
      this.host.logger.warn({ err: String(err), participant: this.identity }, 'negotiation failed');
    });
  }

  private async negotiate(offer: SessionDescription): Promise<void> {
    if (this.closed) return;
    const sections = parseSections(offer.sdp);
    // werift accepts nearly any text: insist on what every real offer has.
    if (
      offer.type !== 'offer' ||
      sections.length === 0 ||
      !/a=ice-ufrag:/.test(offer.sdp) ||
      !/a=fingerprint:/.test(offer.sdp)
    ) {
      throw new Error('not an SDP offer with media sections, ICE credentials and a DTLS fingerprint');
    }
    await this.peer.applyOffer(offer.sdp);
    const announced = this.upTracks.takePublications(sections);
    const removed = this.upTracks.dropPublications(sections);
    if (announced.length || removed.length) this.bumpVersion();
    for (const t of removed)
      this.send({ case: 'trackUnpublished', value: new TrackUnpublishedResponse({ trackSid: t.sid }) });
    this.singlePc?.fillSections(sections);
    const sdp = await this.peer.answer(offer.sdp);
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
        midToTrackId: this.singlePc?.midToTrackId() ?? {},
      }),
    });
    this.singlePc?.answered();
  }

  sendData(label: string, bytes: Uint8Array): void {
    this.peer.sendData(label, bytes);
  }

  disconnect(reason: string, code: number = CloseCode.normal): void {
    this.signal?.close(code, reason);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.state = ParticipantInfo_State.DISCONNECTED;
    this.upTracks.close();
    this.downTracks.close();
    this.subscriber?.close();
    this.peer.close();
  }
}
