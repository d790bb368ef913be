// The legacy two-peer-connection flow (/rtc): subscriptions travel on a second peer connection where the server
// offers (sendonly m-lines with stream id "<participant sid>|<track sid>") and the client answers.
import { SessionDescription } from '@livekit/protocol';
import type * as werift from 'werift';
import type { DownTrackPlacement } from '../media/down-tracks';
import type { TrackSubscription } from '../media/forwarding';
import { WeriftDownstream } from '../media/werift-endpoints';
import type { SfuLogger } from '../logger';
import { createPeer, type PeerNetwork } from './peer';
import type { IceCandidateInit } from './media-peer';
import { fixAnswer } from './sdp';

/** The server-offered subscriber connection of the legacy flow, on werift or on node-datachannel (dc-peer.ts). */
export interface SubscriberConnection extends DownTrackPlacement {
  applyAnswer(answer: SessionDescription): Promise<void>;
  addIceCandidate(candidate: IceCandidateInit): Promise<void>;
  onConnected(cb: () => void): void;
}

export class SubscriberPeer implements SubscriberConnection {
  readonly pc: werift.RTCPeerConnection;
  private offerId = 0;
  private awaitingAnswer = false;
  private again = false;
  private readonly trackByTransceiver = new Map<string, string>();
  private readonly transceivers = new Map<TrackSubscription, werift.RTCRtpTransceiver>();

  constructor(
    private readonly network: PeerNetwork,
    private readonly logger: SfuLogger,
    private readonly sendOffer: (offer: SessionDescription) => void,
  ) {
    this.pc = createPeer(network);
  }

  place(sub: TrackSubscription): void {
    const transceiver = this.pc.addTransceiver(sub.track.kind, { direction: 'sendonly' });
    transceiver.sender.streamId = `${sub.track.publisherSid}|${sub.track.sid}`;
    this.trackByTransceiver.set(transceiver.id, sub.track.sid);
    this.transceivers.set(sub, transceiver);
    sub.attach(new WeriftDownstream(transceiver));
    this.negotiate();
  }

  drop(sub: TrackSubscription): void {
    const transceiver = this.transceivers.get(sub);
    this.transceivers.delete(sub);
    sub.detach();
    if (!transceiver) return;
    this.trackByTransceiver.delete(transceiver.id);
    transceiver.setDirection('inactive');
    this.negotiate();
  }

  /** One offer at a time; changes made while waiting for an answer go into the next one. */
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
    const offer = await this.pc.createOffer();
    await this.pc.setLocalDescription(offer);
    const midToTrackId: Record<string, string> = {};
    for (const t of this.pc.getTransceivers()) {
      const sid = this.trackByTransceiver.get(t.id);
      if (sid && t.mid) midToTrackId[t.mid] = sid;
    }
    this.sendOffer(
      new SessionDescription({
        type: 'offer',
        sdp: fixAnswer(this.pc.localDescription?.sdp ?? offer.sdp, this.network.allowedAddresses),
        id: ++this.offerId,
        midToTrackId,
      }),
    );
  }

  async applyAnswer(answer: SessionDescription): Promise<void> {
    if (!this.awaitingAnswer || (answer.id !== 0 && answer.id !== this.offerId)) return;
    await this.pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
    this.awaitingAnswer = false;
    if (this.again) this.negotiate();
  }

  async addIceCandidate(candidate: IceCandidateInit): Promise<void> {
    await this.pc.addIceCandidate(candidate as werift.RTCIceCandidateInit);
  }

  onConnected(cb: () => void): void {
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') cb();
    });
  }

  close(): void {
    this.pc.close().catch(() => {});
  }
}
