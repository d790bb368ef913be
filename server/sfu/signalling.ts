// What a participant's SignalRequests do: each request case mapped onto the participant's operations
// (negotiation, publishing, subscriptions, pings, metadata).
import type * as werift from 'werift';
import type { Participant } from './participant';
import type { RequestMessage } from './signal-connection';

const SUBSCRIBER_TARGET = 1; // livekit.SignalTarget.SUBSCRIBER

export function handleSignalRequest(p: Participant, msg: RequestMessage): void {
  p.lastSeen = Date.now();
  switch (msg.case) {
    case 'offer':
      p.answerOffer(msg.value);
      return;
    case 'answer':
      p.subscriberAnswer(msg.value);
      return;
    case 'trickle': {
      let candidate: werift.RTCIceCandidateInit;
      try {
        candidate = JSON.parse(msg.value.candidateInit) as werift.RTCIceCandidateInit;
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
        value: { lastPingTimestamp: msg.value.timestamp, timestamp: BigInt(Date.now()) } as never,
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
