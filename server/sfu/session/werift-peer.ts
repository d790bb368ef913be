// The participant's peer connection on werift (media-peer.ts): werift applies the offer and makes the answer, the
// answer is fixed for browsers (sdp.ts) and gets transport-cc for what the client publishes (uplink-feedback.ts).
import type * as werift from 'werift';
import type { Downstream, Upstream } from '../media/endpoints';
import { WeriftDownstream, weriftUpstream } from '../media/werift-endpoints';
import type { IceCandidateInit, MediaPeer } from './media-peer';
import { createPeer, type PeerNetwork } from './peer';
import { fixAnswer } from './sdp';
import { UplinkFeedback } from './uplink-feedback';

export class WeriftPeer implements MediaPeer {
  readonly pc: werift.RTCPeerConnection;
  /** Transport-cc to this participant's browser for what it publishes (null when the SFU is set not to). */
  readonly uplink: UplinkFeedback | null;
  private readonly channels = new Map<string, werift.RTCDataChannel>();

  constructor(private readonly network: PeerNetwork) {
    this.pc = createPeer(network);
    this.uplink = network.uplinkFeedback === false ? null : new UplinkFeedback(this.pc);
  }

  private transceiver(mid: string): werift.RTCRtpTransceiver | undefined {
    return this.pc.getTransceivers().find((t) => t.mid === mid);
  }

  async applyOffer(sdp: string): Promise<void> {
    await this.pc.setRemoteDescription({ type: 'offer', sdp });
  }

  upstream(mid: string): Upstream | null {
    const t = this.transceiver(mid);
    return t ? weriftUpstream(t) : null;
  }

  downstream(mid: string, _kind: 'audio' | 'video', streamId: string): Downstream | null {
    const transceiver = this.transceiver(mid);
    if (!transceiver) return null;
    transceiver.setDirection('sendonly');
    // livekit-client reads "<participant sid>|<track sid>" from the stream id.
    transceiver.sender.streamId = streamId;
    return new WeriftDownstream(transceiver);
  }

  deactivate(mid: string): void {
    const t = this.transceiver(mid);
    if (t && t.direction !== 'inactive') t.setDirection('inactive');
  }

  async answer(offerSdp: string): Promise<string> {
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription(answer);
    // An inactive transceiver must not be recycled by werift for a later, different m-line.
    for (const t of this.pc.getTransceivers()) t.usedForSender = true;
    const fixed = fixAnswer(this.pc.localDescription?.sdp ?? answer.sdp, this.network.allowedAddresses);
    return this.uplink ? this.uplink.answer(offerSdp, fixed) : fixed;
  }

  async addIceCandidate(candidate: IceCandidateInit): Promise<void> {
    await this.pc.addIceCandidate(candidate as werift.RTCIceCandidateInit);
  }

  onData(cb: (label: string, bytes: Uint8Array) => void): void {
    this.pc.onDataChannel.subscribe((dc) => {
      this.channels.set(dc.label, dc);
      dc.onMessage.subscribe((data) => {
        if (typeof data !== 'string') cb(dc.label, data);
      });
    });
  }

  sendData(label: string, bytes: Uint8Array): void {
    const dc = this.channels.get(label);
    if (dc?.readyState === 'open') dc.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  onConnected(cb: () => void): void {
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') cb();
    });
  }

  close(): void {
    this.uplink?.close();
    this.pc.close().catch(() => {});
  }
}
