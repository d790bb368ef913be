// A room: made on first join, closed when the last participant leaves. Tells participants about each other,
// wires subscriptions when tracks are published and relays data packets.
import {
  ConnectionQualityUpdate,
  DataPacket,
  DataPacket_Kind,
  DisconnectReason,
  type JoinResponse,
  LeaveRequest,
  LeaveRequest_Action,
  ParticipantInfo_State,
  ParticipantUpdate,
  type ReconnectResponse,
  Room as RoomInfo,
  SpeakersChanged,
} from '@livekit/protocol';
import type { PublishedTrack } from '../media/forwarding';
import { newSid } from '../ids';
import type { SfuLogger } from '../logger';
import type { Participant, ParticipantHost } from './participant';
import type { PeerNetwork } from './peer';
import { encodeResponse, type OpenSignal } from '../signal';
import { QUALITY_INTERVAL_MS, QualityMonitor } from './connection-quality';
import { SPEAKER_INTERVAL_MS, SpeakerDetector } from './speakers';

const RELIABLE_LABEL = '_reliable';
/** How often each subscriber's layers are fitted to its downlink estimate (down-tracks.ts). */
const BANDWIDTH_INTERVAL_MS = 500;

export class Room implements ParticipantHost {
  readonly sid = newSid('RM_');
  readonly createdAt = Date.now();
  readonly participants = new Map<string, Participant>();
  private readonly speakers = new SpeakerDetector();
  private readonly speakerTimer: NodeJS.Timeout;
  private readonly quality = new QualityMonitor();
  private readonly qualityTimer: NodeJS.Timeout;
  private readonly bandwidthTimer: NodeJS.Timeout;

  constructor(
    readonly name: string,
    readonly network: PeerNetwork,
    readonly logger: SfuLogger,
    private readonly onEmpty: (room: Room) => void,
    bandwidthAllocation = true,
    /** After someone left (before onEmpty). */
    private readonly onLeft: (room: Room) => void = () => {},
  ) {
    this.speakerTimer = setInterval(() => this.sendSpeakers(), SPEAKER_INTERVAL_MS);
    this.speakerTimer.unref();
    this.qualityTimer = setInterval(() => this.sendQuality(), QUALITY_INTERVAL_MS);
    this.qualityTimer.unref();
    this.bandwidthTimer = setInterval(() => {
      if (bandwidthAllocation) this.allocateBandwidth();
    }, BANDWIDTH_INTERVAL_MS);
    this.bandwidthTimer.unref();
  }

  /** Each subscriber's layers from its downlink estimate, after measuring what every layer carries now. */
  private allocateBandwidth(): void {
    const now = Date.now();
    for (const p of this.participants.values()) for (const t of p.published.values()) t.measureBitrates(now);
    for (const p of this.participants.values()) p.downTracks.allocate(now);
  }

  private sendQuality(): void {
    const updates = this.quality.tick(this.participants.values());
    if (updates.length === 0) return;
    const bytes = encodeResponse({ case: 'connectionQuality', value: new ConnectionQualityUpdate({ updates }) });
    for (const p of this.participants.values()) p.sendEncoded(bytes);
  }

  /** The speakers of the moment to one participant (after its join or resume): later updates are only changes. */
  sendCurrentSpeakers(p: Participant): void {
    const speakers = this.speakers.current();
    if (speakers.length) p.send({ case: 'speakersChanged', value: new SpeakersChanged({ speakers }) });
  }

  private sendSpeakers(): void {
    const speakers = this.speakers.tick(this.participants.values());
    if (speakers.length === 0) return;
    const bytes = encodeResponse({ case: 'speakersChanged', value: new SpeakersChanged({ speakers }) });
    for (const p of this.participants.values()) p.sendEncoded(bytes);
  }

  info(): RoomInfo {
    return new RoomInfo({
      sid: this.sid,
      name: this.name,
      creationTime: BigInt(Math.floor(this.createdAt / 1000)),
      creationTimeMs: BigInt(this.createdAt),
      numParticipants: this.participants.size,
      emptyTimeout: 0,
      departureTimeout: 0,
    });
  }

  /** Adds the participant and returns what its JoinResponse lists; the caller announces it after that response. */
  join(p: Participant): Pick<JoinResponse, 'room' | 'otherParticipants'> {
    const others = [...this.participants.values()].filter((o) => !o.grants.hidden).map((o) => o.info());
    this.participants.set(p.sid, p);
    return { room: this.info(), otherParticipants: others };
  }

  /** Subscribe the newcomer to what is already published (after its JoinResponse announced the publishers). */
  subscribeToExisting(p: Participant): void {
    if (!p.autoSubscribe) return;
    for (const other of this.participants.values()) {
      if (other === p) continue;
      for (const track of other.published.values()) p.subscribe(track);
    }
  }

  /**
   * A client whose websocket dropped comes back on a new one (reconnect=1): the session goes on with the new
   * signal connection, and the client gets everybody's current state. false when there is no such session.
   */
  resume(openSignal: OpenSignal, identity: string, sid: string, reconnect: ReconnectResponse): boolean {
    const p = this.participants.get(sid);
    if (!p || p.identity !== identity) return false;
    const signal = openSignal((msg) => p.handle(msg));
    p.attachSignal(signal);
    signal.onClose(() => p.detachSignal(signal));
    p.send({ case: 'reconnect', value: reconnect });
    // Whatever changed while the signal was down: versions newer than before.
    for (const other of this.participants.values()) {
      if (other !== p && !other.grants.hidden)
        p.send({ case: 'update', value: new ParticipantUpdate({ participants: [other.info()] }) });
    }
    this.sendCurrentSpeakers(p);
    this.logger.info({ room: this.name, participant: p.identity }, 'participant resumed');
    return true;
  }

  participantChanged(p: Participant): void {
    if (p.grants.hidden) {
      p.send({ case: 'update', value: new ParticipantUpdate({ participants: [p.info()] }) });
      return;
    }
    const update = { case: 'update' as const, value: new ParticipantUpdate({ participants: [p.info()] }) };
    for (const other of this.participants.values()) other.send(update);
  }

  trackPublished(p: Participant, track: PublishedTrack): void {
    this.participantChanged(p);
    for (const other of this.participants.values()) if (other !== p && other.autoSubscribe) other.subscribe(track);
  }

  trackUnpublished(p: Participant, track: PublishedTrack): void {
    for (const other of this.participants.values()) other.unsubscribe(track.sid);
    this.participantChanged(p);
  }

  findTrack(trackSid: string): PublishedTrack | undefined {
    for (const p of this.participants.values()) {
      const t = p.published.get(trackSid);
      if (t) return t;
    }
    return undefined;
  }

  dataReceived(from: Participant, label: string, bytes: Uint8Array): void {
    if (!from.grants.canPublishData) return;
    let packet: DataPacket;
    try {
      packet = DataPacket.fromBinary(bytes);
    } catch {
      this.logger.debug({ participant: from.identity }, 'undecodable data packet dropped');
      return;
    }
    // The server, not the sender, says who sent it.
    packet.participantIdentity = from.identity;
    packet.participantSid = from.sid;
    let destinations = packet.destinationIdentities;
    if (packet.value.case === 'user') {
      packet.value.value.participantIdentity = from.identity;
      packet.value.value.participantSid = from.sid;
      if (destinations.length === 0) destinations = packet.value.value.destinationIdentities;
    }
    // The channel it came on says how it travels on; senders fill the old `kind` field inconsistently.
    packet.kind = label === RELIABLE_LABEL ? DataPacket_Kind.RELIABLE : DataPacket_Kind.LOSSY;
    if (label === RELIABLE_LABEL) packet.sequence = ++from.reliableSequence;
    const out = packet.toBinary();
    for (const p of this.participants.values()) {
      if (p === from) continue;
      if (destinations.length > 0 && !destinations.includes(p.identity)) continue;
      p.sendData(label, out);
    }
  }

  /**
   * Removes a participant and tells the others. When the server ends the session (not the client), `tellClient`
   * sends it a leave that says why and that it must not reconnect on its own.
   */
  leave(p: Participant, reason: string, tellClient?: DisconnectReason): void {
    if (this.participants.get(p.sid) !== p) return;
    if (tellClient !== undefined) {
      p.send({
        case: 'leave',
        value: new LeaveRequest({ canReconnect: false, reason: tellClient, action: LeaveRequest_Action.DISCONNECT }),
      });
    }
    this.logger.info({ room: this.name, participant: p.identity, reason }, 'participant left');
    this.participants.delete(p.sid);
    for (const track of p.published.values()) {
      for (const other of this.participants.values()) other.unsubscribe(track.sid);
    }
    p.close();
    p.bumpVersion();
    const gone = p.info();
    gone.state = ParticipantInfo_State.DISCONNECTED;
    gone.tracks = [];
    // The others learn why too (a removal, an identity that joined again), as LiveKit's own server tells them.
    if (tellClient !== undefined) gone.disconnectReason = tellClient;
    for (const other of this.participants.values())
      other.send({ case: 'update', value: new ParticipantUpdate({ participants: [gone] }) });
    p.disconnect(reason);
    this.onLeft(this);
    if (this.participants.size === 0) {
      clearInterval(this.speakerTimer);
      clearInterval(this.qualityTimer);
      clearInterval(this.bandwidthTimer);
      this.onEmpty(this);
    }
  }

  close(reason: string): void {
    for (const p of [...this.participants.values()]) this.leave(p, reason, DisconnectReason.SERVER_SHUTDOWN);
  }
}
