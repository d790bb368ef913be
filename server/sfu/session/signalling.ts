// What a participant's SignalRequests do: each request case mapped onto the participant's operations
// (negotiation, publishing, subscriptions, pings, metadata).
import { Pong } from '@livekit/protocol';
import type { AddTrackRequest, SessionDescription } from '@livekit/protocol';
import type { IceCandidateInit } from './media-peer';
import type { SfuLogger } from '../logger';
import type { TrackSubscription } from '../media/forwarding';
import type { RequestMessage, ResponseMessage } from '../signal';

/** The participant operations requests map onto (participant.ts implements them). */
export interface SignalledParticipant {
  lastSeen: number;
  readonly identity: string;
  readonly logger: SfuLogger;
  readonly subscriptions: ReadonlyMap<string, TrackSubscription>;
  send(message: ResponseMessage): void;
  answerOffer(offer: SessionDescription): void;
  subscriberAnswer(answer: SessionDescription): void;
  addIceCandidate(candidate: IceCandidateInit, forSubscriber: boolean): void;
  addTrack(req: AddTrackRequest): void;
  setMuted(trackSid: string, muted: boolean): void;
  subscribeTo(trackSid: string): void;
  unsubscribe(trackSid: string): void;
  updateMetadata(name: string, metadata: string, attributes: Record<string, string>): void;
  leaveRoom(reason: string): void;
}

const SUBSCRIBER_TARGET = 1; // livekit.SignalTarget.SUBSCRIBER

export function handleSignalRequest(p: SignalledParticipant, msg: RequestMessage): void {
  p.lastSeen = Date.now();
  switch (msg.case) {
    case 'offer':
      p.answerOffer(msg.value);
      return;
    case 'answer':
      p.subscriberAnswer(msg.value);
      return;
    case 'trickle': {
      let candidate: IceCandidateInit;
      try {
        candidate = JSON.parse(msg.value.candidateInit) as IceCandidateInit;
      } catch {
        p.logger.debug({ participant: p.identity }, 'unparseable trickle candidate ignored');
        return;
      }
      p.addIceCandidate(candidate, msg.value.target === SUBSCRIBER_TARGET);
      return;
    }
    case 'addTrack':
      p.addTrack(msg.value);
      return;
    case 'mute':
      p.setMuted(msg.value.sid, msg.value.muted);
      return;
    case 'subscription':
      for (const sid of [...msg.value.trackSids, ...msg.value.participantTracks.flatMap((pt) => pt.trackSids)]) {
        if (msg.value.subscribe) p.subscribeTo(sid);
        else p.unsubscribe(sid);
      }
      return;
    case 'trackSetting':
      for (const sid of msg.value.trackSids) p.subscriptions.get(sid)?.applySettings(msg.value);
      return;
    case 'leave':
      p.leaveRoom('client left');
      return;
    case 'ping':
      p.send({ case: 'pong', value: BigInt(Date.now()) });
      return;
    case 'pingReq':
      p.send({
        case: 'pongResp',
        value: new Pong({ lastPingTimestamp: msg.value.timestamp, timestamp: BigInt(Date.now()) }),
      });
      return;
    case 'updateMetadata':
      p.updateMetadata(msg.value.name, msg.value.metadata, msg.value.attributes);
      return;
    default:
      // Known requests the embedded SFU has no use for (layers, sync state, simulate, …) are accepted silently.
      p.logger.debug({ participant: p.identity, request: msg.case }, 'signal request ignored');
  }
}
