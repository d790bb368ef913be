// Which WebRTC implementation a participant's connections use (PeerNetwork.transport, SFU_TRANSPORT).
import type { SessionDescription } from '@livekit/protocol';
import type { SfuLogger } from '../logger';
import { DcPeer, DcSubscriberPeer } from './dc-peer';
import type { MediaPeer } from './media-peer';
import type { PeerNetwork } from './peer';
import { type SubscriberConnection, SubscriberPeer } from './subscriber-peer';
import { WeriftPeer } from './werift-peer';

export function createMediaPeer(network: PeerNetwork, logger: SfuLogger): MediaPeer {
  return network.transport === 'datachannel' ? new DcPeer(network, logger) : new WeriftPeer(network);
}

export function createSubscriberConnection(
  network: PeerNetwork,
  logger: SfuLogger,
  sendOffer: (offer: SessionDescription) => void,
): SubscriberConnection {
  return network.transport === 'datachannel'
    ? new DcSubscriberPeer(network, logger, sendOffer)
    : new SubscriberPeer(network, logger, sendOffer);
}
