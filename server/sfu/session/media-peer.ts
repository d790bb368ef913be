// The peer connection a participant's client offers on, as the session layer uses it, whatever implements WebRTC
// underneath: werift (werift-peer.ts, the default) or libdatachannel through node-datachannel (dc-peer.ts,
// SFU_TRANSPORT=datachannel). The session reads the offer's sections itself (sdp.ts), so the peer only applies
// offers, hands out the endpoints the forwarding uses (media/endpoints.ts) per mid, and answers.
import type { Downstream, Upstream } from '../media/endpoints';

export interface IceCandidateInit {
  candidate?: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
  usernameFragment?: string | null;
}

export interface MediaPeer {
  /** Applies the client's offer (already checked to be one). */
  applyOffer(sdp: string): Promise<void>;
  /** The receiving end of an offered section the client sends on, once its offer is applied. */
  upstream(mid: string): Upstream | null;
  /** Turns a free recvonly section of the applied offer into a sendonly one carrying `streamId`. */
  downstream(mid: string, kind: 'audio' | 'video', streamId: string): Downstream | null;
  /** A section whose subscription went away: answered inactive from now on. */
  deactivate(mid: string): void;
  /** The answer to the applied offer, as sent to the client. */
  answer(offerSdp: string): Promise<string>;
  addIceCandidate(candidate: IceCandidateInit): Promise<void>;
  /** Binary messages on the client's data channels (`_reliable`, `_lossy`). */
  onData(cb: (label: string, bytes: Uint8Array) => void): void;
  sendData(label: string, bytes: Uint8Array): void;
  /** The connection (re)connected. */
  onConnected(cb: () => void): void;
  close(): void;
}
