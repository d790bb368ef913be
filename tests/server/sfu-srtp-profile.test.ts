// The SFU is the DTLS server on every connection that leaves it the choice and picks AES_CM_128_HMAC_SHA1_80
// (server/sfu/session/peer.ts), though the other side, as a browser does, prefers AEAD_AES_128_GCM: two werift peers
// over loopback, the SFU's against a stock one.
import { afterEach, describe, expect, it } from 'vitest';
import * as werift from 'werift';
import { createPeer } from '../../server/sfu/session/peer';

const network = { hostAddresses: ['127.0.0.1'], allowedAddresses: new Set(['127.0.0.1']), udpPortRange: null };
const open: werift.RTCPeerConnection[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((pc) => pc.close()));
});

const stock = () =>
  new werift.RTCPeerConnection({ iceServers: [], iceUseIpv6: false, iceAdditionalHostAddresses: ['127.0.0.1'] });

/** Resolves once the peer's candidates are all in its local description (no trickle here). */
async function gathered(pc: werift.RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState !== 'complete') await pc.iceGatheringStateChange.watch((s) => s === 'complete');
}

/** Offer from `offerer`, answer from `answerer`; resolves with both sides' negotiated SRTP profile. */
async function connect(offerer: werift.RTCPeerConnection, answerer: werift.RTCPeerConnection) {
  open.push(offerer, answerer);
  offerer.addTransceiver('video', { direction: 'sendonly' });
  await offerer.setLocalDescription(await offerer.createOffer());
  await gathered(offerer);
  await answerer.setRemoteDescription(offerer.localDescription as werift.RTCSessionDescription);
  await answerer.setLocalDescription(await answerer.createAnswer());
  await gathered(answerer);
  await offerer.setRemoteDescription(answerer.localDescription as werift.RTCSessionDescription);
  await Promise.all(
    [offerer, answerer].map((pc) =>
      pc.connectionState === 'connected' ? undefined : pc.connectionStateChange.watch((s) => s === 'connected'),
    ),
  );
  const profile = (pc: werift.RTCPeerConnection) =>
    (pc.dtlsTransports[0] as unknown as { srtp: { localContext: { profile: number } } }).srtp.localContext.profile;
  return [profile(offerer), profile(answerer)];
}

describe('SRTP profile', () => {
  it('two stock werift peers settle on GCM (what a browser offers first)', async () => {
    const gcm = werift.ProtectionProfileAeadAes128Gcm;
    expect(await connect(stock(), stock())).toEqual([gcm, gcm]);
  });

  it('the SFU answering an actpass offer (a publisher’s, or the single connection of /rtc/v1) is the DTLS server and settles on AES_CM', async () => {
    const cm = werift.ProtectionProfileAes128CmHmacSha1_80;
    expect(await connect(stock(), createPeer(network))).toEqual([cm, cm]);
  });

  it('an offer that asks to be the DTLS server keeps that role, and its own choice stands', async () => {
    const gcm = werift.ProtectionProfileAeadAes128Gcm;
    const offerer = stock();
    const createOffer = offerer.createOffer.bind(offerer);
    // The offerer's transport takes the server's role before its offer is written, so the offer says passive.
    offerer.createOffer = async () => {
      for (const t of offerer.dtlsTransports) t.role = 'server';
      const offer = await createOffer();
      expect(offer.sdp).toContain('a=setup:passive');
      return offer;
    };
    expect(await connect(offerer, createPeer(network))).toEqual([gcm, gcm]);
  });

  it('the SFU offering (a subscriber’s connection, what carries the forwarded packets) settles on AES_CM', async () => {
    const cm = werift.ProtectionProfileAes128CmHmacSha1_80;
    expect(await connect(createPeer(network), stock())).toEqual([cm, cm]);
  });
});
