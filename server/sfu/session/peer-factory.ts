// Which WebRTC implementation a participant's connections use (PeerNetwork.transport, SFU_TRANSPORT). The native
// one (dc-peer.ts, node-datachannel) is loaded only when chosen (loadTransport, before the rooms start), so the
// werift path never loads the native addon.
import type { SessionDescription } from '@livekit/protocol';
import type { SfuLogger } from '../logger';
import type { MediaPeer } from './media-peer';
import type { PeerNetwork, SfuTransport } from './peer';
import { type SubscriberConnection, SubscriberPeer } from './subscriber-peer';
import { WeriftPeer } from './werift-peer';

let native: typeof import('./dc-peer') | null = null;

/** Loads what `transport` needs; call before a participant joins (engine start). */
export async function loadTransport(transport: SfuTransport): Promise<void> {
  if (transport === 'datachannel' && !native) native = await import('./dc-peer');
}

function nativePeers(): typeof import('./dc-peer') {
  if (!native) throw new Error('SFU_TRANSPORT=datachannel: loadTransport() was not awaited before the rooms started');
  return native;
}

export function createMediaPeer(network: PeerNetwork, logger: SfuLogger): MediaPeer {
  return network.transport === 'datachannel' ? new (nativePeers().DcPeer)(network, logger) : new WeriftPeer(network);
}

export function createSubscriberConnection(
  network: PeerNetwork,
  logger: SfuLogger,
  sendOffer: (offer: SessionDescription) => void,
): SubscriberConnection {
  return network.transport === 'datachannel'
    ? new (nativePeers().DcSubscriberPeer)(network, logger, sendOffer)
    : new SubscriberPeer(network, logger, sendOffer);
}
