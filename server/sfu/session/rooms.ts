// The rooms of this server: made on first join, dropped when empty. Joins (with the JoinResponse), resumes
// (through the participant's Room) and the once-a-second sweep of silent participants and due token refreshes.
import {
  DisconnectReason,
  type ICEServer,
  type JoinRequest,
  JoinResponse,
  LeaveRequest,
  LeaveRequest_Action,
  ReconnectResponse,
  type ServerInfo,
} from '@livekit/protocol';
import type { Grants } from '../grants';
import type { SfuLogger } from '../logger';
import { Participant, type PeerMode } from './participant';
import type { PeerNetwork } from './peer';
import { Room } from './room';
import { CloseCode, type OpenSignal } from '../signal';

export interface RoomsOptions {
  network: PeerNetwork;
  logger: SfuLogger;
  serverInfo: ServerInfo;
  serverVersion: string;
  pingInterval: number;
  pingTimeout: number;
  /** ICE servers (TURN with fresh credentials) for one participant's join or reconnect. */
  iceServersFor(identity: string): ICEServer[];
  bandwidthAllocation: boolean;
  /** A room was made (true) or closed (false): the main process's placement table follows (workers/pool.ts). */
  onRoomChange?(room: string, open: boolean): void;
  /** Who is in a room (identities) after each join and leave: the app ends guests' admission with the call. */
  onParticipants?(room: string, identities: string[]): void;
}

export class Rooms {
  readonly rooms = new Map<string, Room>();

  constructor(private readonly o: RoomsOptions) {}

  private roomFor(name: string): Room {
    let room = this.rooms.get(name);
    if (!room) {
      room = new Room(
        name,
        this.o.network,
        this.o.logger,
        (r) => {
          if (this.rooms.get(r.name) === r) this.rooms.delete(r.name);
          this.o.logger.info({ room: r.name }, 'room closed');
          this.o.onRoomChange?.(r.name, false);
        },
        this.o.bandwidthAllocation,
        (r) => this.reportParticipants(r),
      );
      this.rooms.set(name, room);
      this.o.logger.info({ room: name }, 'room created');
      this.o.onRoomChange?.(name, true);
    }
    return room;
  }

  /**
   * A new signal channel, already authenticated: a resume of a live session or a fresh join. The transport opens
   * the channel when this knows where its requests go.
   */
  accept(openSignal: OpenSignal, grants: Grants, mode: PeerMode, joinRequest: JoinRequest | null): void {
    const { logger } = this.o;
    if (joinRequest?.reconnect && joinRequest.participantSid) {
      const reconnect = new ReconnectResponse({
        iceServers: this.o.iceServersFor(grants.identity),
        serverInfo: this.o.serverInfo,
      });
      if (this.rooms.get(grants.room)?.resume(openSignal, grants.identity, joinRequest.participantSid, reconnect))
        return;
      // Nothing to resume: the client falls back to a full reconnect after this leave.
      const signal = openSignal(() => {});
      signal.send({
        case: 'leave',
        value: new LeaveRequest({
          canReconnect: true,
          action: LeaveRequest_Action.RECONNECT,
          reason: DisconnectReason.STATE_MISMATCH,
        }),
      });
      signal.close(CloseCode.normal, 'session to resume not found');
      return;
    }
    // Replace a session with the same identity first: that may close the room, which roomFor then remakes.
    const existing = this.rooms.get(grants.room);
    for (const other of [...(existing?.participants.values() ?? [])]) {
      if (other.identity === grants.identity)
        existing?.leave(other, 'duplicate identity', DisconnectReason.DUPLICATE_IDENTITY);
    }
    const room = this.roomFor(grants.room);
    const p = new Participant(grants, room, mode);
    p.autoSubscribe = joinRequest?.connectionSettings?.autoSubscribe ?? true;
    const signal = openSignal((msg) => p.handle(msg));
    p.attachSignal(signal);
    signal.onClose(() => p.detachSignal(signal));
    const joined = room.join(p);
    p.send({
      case: 'join',
      value: new JoinResponse({
        room: joined.room,
        participant: p.info(),
        otherParticipants: joined.otherParticipants,
        serverVersion: this.o.serverVersion,
        serverInfo: this.o.serverInfo,
        serverRegion: '',
        pingInterval: this.o.pingInterval,
        pingTimeout: this.o.pingTimeout,
        subscriberPrimary: false,
        iceServers: this.o.iceServersFor(grants.identity),
      }),
    });
    room.participantChanged(p);
    room.sendCurrentSpeakers(p);
    this.reportParticipants(room);
    logger.info({ room: room.name, participant: p.identity }, 'participant joined');
    if (joinRequest?.publisherOffer) p.handle({ case: 'offer', value: joinRequest.publisherOffer });
    room.subscribeToExisting(p);
  }

  private reportParticipants(room: Room): void {
    this.o.onParticipants?.(
      room.name,
      [...room.participants.values()].map((p) => p.identity),
    );
  }

  participants(): Participant[] {
    return [...this.rooms.values()].flatMap((room) => [...room.participants.values()]);
  }

  /** Removes participants whose client sent nothing since `deadline` (ms epoch). */
  sweep(deadline: number): void {
    for (const room of this.rooms.values()) {
      for (const p of [...room.participants.values()]) if (p.lastSeen < deadline) room.leave(p, 'ping timeout');
    }
  }

  close(reason: string): void {
    for (const room of [...this.rooms.values()]) room.close(reason);
  }
}
