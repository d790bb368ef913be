// The forwarding's endpoints (endpoints.ts) on werift: a published m-line's transceiver (its receiver's tracks, one
// per simulcast rid) and a subscriber's transceiver (its sender, written through rtp-out.ts).
import * as werift from 'werift';
import {
  type Downstream,
  type DownstreamFeedback,
  PADDING_BYTES,
  PADDING_PAYLOAD,
  type Upstream,
  type UpstreamLayer,
} from './endpoints';
import { RtpOut, type SendClock } from './rtp-out';

const AUDIO_LEVEL_URI = werift.RTP_EXTENSION_URI.audioLevelIndication;

function layerOf(track: werift.MediaStreamTrack): UpstreamLayer {
  return {
    rid: track.rid ?? '',
    source: track,
    ssrc: track.ssrc ?? 0,
    subscribe: (onRtp) =>
      track.onReceiveRtp.subscribe((rtp, extensions) => {
        const level = extensions?.[AUDIO_LEVEL_URI] as { level: number } | undefined;
        onRtp(rtp, level?.level);
      }).unSubscribe,
  };
}

export function weriftUpstream(transceiver: werift.RTCRtpTransceiver): Upstream {
  return {
    onLayer(cb) {
      for (const track of transceiver.receiver.tracks) cb(layerOf(track));
      // ontrack fires again on every renegotiation: the forwarding keeps one source per layer.
      transceiver.onTrack.subscribe((track) => cb(layerOf(track)));
    },
    requestKeyframe(ssrc) {
      transceiver.receiver.sendRtcpPLI(ssrc).catch(() => {});
    },
  };
}

export class WeriftDownstream implements Downstream {
  private readonly out: RtpOut;

  constructor(readonly transceiver: werift.RTCRtpTransceiver) {
    this.out = new RtpOut(transceiver.sender);
  }

  send(
    payload: Buffer,
    marker: boolean,
    sequenceNumber: number,
    timestamp: number,
    clock: SendClock,
    descriptor: Buffer | null,
  ): void {
    this.out.send(payload, marker, sequenceNumber, timestamp, clock, descriptor);
  }

  sendPadding(sequenceNumber: number, timestamp: number, clock: SendClock): void {
    if (this.out.sendPadding(PADDING_PAYLOAD, sequenceNumber, timestamp, clock)) return;
    // werift's sender would stamp its own (wrong) send time: the probe carries ours, as media does (rtp-out.ts), or
    // the browser's estimator would not see it as sent when it was.
    const sender = this.transceiver.sender as unknown as {
      headerExtensions: { uri: string; id: number }[];
      ntpTimestamp: bigint;
    };
    const absId = sender.headerExtensions.find((e) => e.uri === werift.RTP_EXTENSION_URI.absSendTime)?.id;
    const abs = Buffer.from([
      (clock.absSendTime >>> 16) & 0xff,
      (clock.absSendTime >>> 8) & 0xff,
      clock.absSendTime & 0xff,
    ]);
    const header = new werift.RtpHeader({
      padding: true,
      paddingSize: PADDING_BYTES,
      payloadType: 0,
      sequenceNumber,
      timestamp,
      ssrc: 0,
      csrc: [],
      csrcLength: 0,
      extension: absId !== undefined,
      extensions: absId === undefined ? [] : [{ id: absId, payload: abs }],
    });
    this.transceiver.sender.sendRtp(new werift.RtpPacket(header, PADDING_PAYLOAD)).catch(() => {});
    sender.ntpTimestamp = clock.ntp;
  }

  listen(feedback: DownstreamFeedback): () => void {
    const sender = this.transceiver.sender;
    const pli = sender.onPictureLossIndication.subscribe(() => feedback.keyframeRequested()).unSubscribe;
    const rtcp = sender.onRtcp.subscribe((packet) => {
      if (packet.type === werift.RtcpPayloadSpecificFeedback.type) {
        const fb = (packet as werift.RtcpPayloadSpecificFeedback).feedback;
        if (fb instanceof werift.ReceiverEstimatedMaxBitrate) feedback.estimate(Number(fb.bitrate));
        return;
      }
      if (packet.type !== werift.RtcpRrPacket.type) return;
      for (const r of (packet as werift.RtcpRrPacket).reports) {
        if (r.ssrc === sender.ssrc) feedback.report(r.fractionLost, r.jitter);
      }
    }).unSubscribe;
    return () => {
      pli();
      rtcp();
    };
  }

  rttMs(): number {
    return ((this.transceiver.sender as unknown as { rtt?: number }).rtt ?? 0) * 1000;
  }

  /**
   * Paused for bandwidth: forget what werift keeps for retransmission, so the subscriber's NACKs for the frames
   * cut short do not keep flooding the link it has no room on.
   */
  dropRetransmissions(): void {
    const sender = this.transceiver.sender as unknown as { rtpCache?: unknown[] };
    if (sender.rtpCache) sender.rtpCache = [];
  }
}
