// werift peer connection set up the way browsers and the Rust SDK accept from this SFU: opus and VP8 only
// (nack, pli, remb), no RED, no STUN/TURN, host candidates on the advertised addresses. The only header extensions
// are the ones simulcast needs on video (mid, rid, repaired rid): browsers refuse simulcast without them; abs-send-time
// on video and audio, which a browser's receive-side estimator needs for the REMBs it sends (downlink-estimate.ts);
// and the audio level on audio. transport-cc is added to the answer by uplink-feedback.ts, for what publishers send only: on
// what the SFU sends the browser reports REMB.
import * as werift from 'werift';

/** Where media flows: the advertised host candidates (only those survive in SDP) and the UDP ports to use. */
export interface PeerNetwork {
  hostAddresses: readonly string[];
  allowedAddresses: ReadonlySet<string>;
  udpPortRange: [number, number] | null;
  /** Transport-cc feedback to publishers (uplink-feedback.ts); off, the answer offers none, as before it existed. */
  uplinkFeedback?: boolean;
  /** The WebRTC implementation (SFU_TRANSPORT): werift (default) or libdatachannel through node-datachannel. */
  transport?: SfuTransport;
}

export type SfuTransport = 'werift' | 'datachannel';

/**
 * `answers: 'active'` is for a peer that plays a client (the capacity bench's subscribers answer the SFU's offer as a
 * browser does); the SFU's own peers answer passively.
 */
export function createPeer(
  network: PeerNetwork,
  { answers = 'passive' }: { answers?: 'passive' | 'active' } = {},
): werift.RTCPeerConnection {
  const pc = new werift.RTCPeerConnection({
    iceServers: [],
    ...(network.udpPortRange ? { icePortRange: network.udpPortRange } : {}),
    iceUseIpv6: false,
    // werift binds each candidate's socket on the wildcard address, so any address routed to this machine works.
    iceAdditionalHostAddresses: [...network.hostAddresses],
    codecs: {
      audio: [new werift.RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
      video: [
        new werift.RTCRtpCodecParameters({
          mimeType: 'video/VP8',
          clockRate: 90000,
          rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'goog-remb' }],
        }),
      ],
    },
    headerExtensions: {
      // RFC 6464 audio level on microphones: active speakers (audio-level.ts). abs-send-time on what the SFU sends
      // of audio too: a browser's receive-side estimator counts only packets that carry it, and a subscriber whose
      // video is paused would otherwise show it nothing but the probe's padding to grow on.
      audio: [werift.RTP_EXTENSION_URI.audioLevelIndication, werift.RTP_EXTENSION_URI.absSendTime].map(
        (uri) => new werift.RTCRtpHeaderExtensionParameters({ uri }),
      ),
      video: [
        werift.RTP_EXTENSION_URI.sdesMid,
        werift.RTP_EXTENSION_URI.sdesRTPStreamID,
        werift.RTP_EXTENSION_URI.repairedRtpStreamId,
        werift.RTP_EXTENSION_URI.absSendTime,
      ].map((uri) => new werift.RTCRtpHeaderExtensionParameters({ uri })),
    },
  });
  preferAesCm(pc);
  if (answers === 'passive') answerPassive(pc);
  return pc;
}

/**
 * SRTP profiles in the SFU's order of preference. werift puts AEAD_AES_128_GCM first, and a browser offers it too,
 * but node:crypto can only do GCM with a new cipher object per packet: 9–16 µs a packet against 4–5 µs for
 * AES_CM_128_HMAC_SHA1_80, whose keystream srtp-fast.ts makes for 32 packets in one call. AES_CM with HMAC-SHA1-80
 * is the profile every WebRTC endpoint must offer (RFC 8827); GCM stays for a peer that offers nothing else.
 */
export const SRTP_PREFERENCE: readonly number[] = [
  werift.ProtectionProfileAes128CmHmacSha1_80,
  werift.ProtectionProfileAeadAes128Gcm,
];

/**
 * The choice is the DTLS server's, and the SFU is the DTLS server on every connection: where it offers (actpass, the
 * client answers active) and where it answers (answerPassive below).
 * werift gives every DTLS transport its module-wide list, read when the handshake starts (after ICE connects, so
 * after both descriptions are set): each transport gets the SFU's order once a description has made it.
 */
function preferAesCm(pc: werift.RTCPeerConnection): void {
  const order = (): void => {
    for (const t of pc.dtlsTransports) (t as unknown as { srtpProfiles: number[] }).srtpProfiles = [...SRTP_PREFERENCE];
  };
  // Overloads (rollback) make a typed wrapper awkward; both keep their arguments and results.
  const target = pc as unknown as Record<
    'setLocalDescription' | 'setRemoteDescription',
    (...a: unknown[]) => Promise<unknown>
  >;
  for (const name of ['setLocalDescription', 'setRemoteDescription'] as const) {
    const set = target[name].bind(pc);
    target[name] = async (...args) => {
      const r = await set(...args);
      order();
      return r;
    };
  }
}

/**
 * An offer that leaves the DTLS role open (actpass: browsers, livekit-client's single connection on /rtc/v1, the
 * Rust SDK) is answered with a=setup:passive, so the SFU is the DTLS server there too and picks AES_CM for what
 * publishers send and, on the single connection, for every forwarded packet. werift would answer active and take
 * the offerer's first profile, GCM. An offer that asks for a role keeps it.
 */
function answerPassive(pc: werift.RTCPeerConnection): void {
  const target = pc as unknown as Record<'createAnswer', (...a: unknown[]) => Promise<unknown>>;
  const create = target.createAnswer.bind(pc);
  target.createAnswer = async (...args) => {
    const setups = pc.remoteDescription?.sdp.match(/^a=setup:\w+/gm) ?? [];
    if (setups.length > 0 && setups.every((line) => line === 'a=setup:actpass')) {
      for (const t of pc.dtlsTransports) if (t.role === 'auto') t.role = 'server';
    }
    return create(...args);
  };
}
