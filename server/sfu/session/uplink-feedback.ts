// Transport-cc for what a participant publishes: the answer accepts the transport-wide sequence number extension the
// browser offers, and every 100 ms the SFU reports when each of the publisher's packets arrived (media/twcc.ts).
// The extension is accepted on every section, from the first answer on: Chromium never offers again an extension an
// answer left out, and the first answer usually comes before any track is published. The feedback is negotiated only
// where the SFU receives: on what the SFU sends the browser keeps estimating on its side and reporting REMB, which
// the downlink estimate reads (downlink-estimate.ts); the SFU never writes the extension (rtp-out.ts). werift's own per-receiver
// responder is not used: transport-wide sequence numbers span all of a connection's streams (camera, screen,
// microphone), which one receiver's view would report as lost.
import { randomInt } from 'node:crypto';
import type * as werift from 'werift';
import { TwccResponder } from '../media/twcc';

export const TRANSPORT_CC_URI = 'http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01';
/** How often feedback goes out, as LiveKit's and mediasoup's responders do. */
export const TWCC_INTERVAL_MS = 100;

/**
 * Where a publisher's congestion control starts (kbit/s), instead of Chromium's 300: 70 % of a 720p camera's top layer
 * (1,700 kbit/s), as LiveKit starts its SVC publishers. Chromium's first probes are not always answered (they can go
 * out before the camera's section is negotiated); without one, its estimate grows by a few percent a second from where
 * it started, so from 300 a camera stays soft for half a minute, from here it is sharp in about three seconds. A link
 * slower than this backs off within a second or two on the transport-cc feedback.
 */
export const START_BITRATE_KBPS = 1200;

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

interface RoutedPacket {
  header: { ssrc: number; extensions: Array<{ id: number; payload: Buffer }> };
}
interface Routing {
  router: { routeRtp: (packet: RoutedPacket) => void };
}

export class UplinkFeedback {
  private extensionId: number | null = null;
  private readonly responder = new TwccResponder(randomInt(1, 0xffffffff));
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pc: werift.RTCPeerConnection,
    private readonly now: () => number = monotonicUs,
  ) {
    // Every decrypted RTP packet of the connection passes the router: note its arrival first, then route it.
    const routing = pc as unknown as Routing;
    const route = routing.router.routeRtp;
    routing.router.routeRtp = (packet) => {
      this.arrived(packet);
      route(packet);
    };
    this.timer = setInterval(() => this.flush(), TWCC_INTERVAL_MS);
    this.timer.unref();
  }

  get counts(): Readonly<{ received: number; reportedLost: number; feedback: number }> {
    return this.responder.counts;
  }

  /** The answer as sent: transport-cc added on every section the SFU receives, with the id the client offered. */
  answer(offerSdp: string, answerSdp: string): string {
    const id = offeredExtensionId(offerSdp);
    if (id === null) return answerSdp;
    const { sdp, added } = addTransportCc(answerSdp, id, offeredFeedbackTypes(offerSdp));
    if (added) this.extensionId = id;
    return addStartBitrate(sdp, START_BITRATE_KBPS);
  }

  arrived(packet: RoutedPacket): void {
    if (this.extensionId === null) return;
    for (const ext of packet.header.extensions) {
      if (ext.id !== this.extensionId || ext.payload.length < 2) continue;
      this.responder.received(ext.payload.readUInt16BE(0), this.now(), packet.header.ssrc);
      return;
    }
  }

  flush(): void {
    if (this.responder.pending === 0) return;
    const transport = this.pc.dtlsTransports.find((t) => t.state === 'connected');
    if (!transport) return;
    const packets = this.responder.feedback(this.now());
    if (packets.length === 0) return;
    transport.sendRtcp(packets.map((bytes) => ({ serialize: () => bytes })) as never).catch(() => {});
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** The id the client gave transport-wide-cc in its offer (the same in every bundled section), or null. */
export function offeredExtensionId(offerSdp: string): number | null {
  const m = offerSdp.match(
    /^a=extmap:(\d+)(?:\/\w+)? http:\/\/www\.ietf\.org\/id\/draft-holmer-rmcat-transport-wide-cc-extensions-01\s*$/m,
  );
  return m ? Number(m[1]) : null;
}

/** Payload types for which the offer asked for transport-cc feedback. */
function offeredFeedbackTypes(offerSdp: string): Set<string> {
  return new Set([...offerSdp.matchAll(/^a=rtcp-fb:(\d+) transport-cc\s*$/gm)].map((m) => m[1] as string));
}

/**
 * Adds `a=extmap:<id>` to every answered audio and video section that is not rejected; transport-cc feedback only
 * where the SFU receives (recvonly, sendrecv: for the payload types the offer asked it for), and none where it only
 * sends or nothing flows yet, since a browser that has transport-cc on a stream it receives stops the REMB the
 * downlink estimate reads (werift copies the offer's feedback lines into its answer, so they are taken out there).
 */
export function addTransportCc(
  answerSdp: string,
  id: number,
  offeredPts: ReadonlySet<string>,
): { sdp: string; added: boolean } {
  const lines = answerSdp.split(/\r?\n/).filter((l) => l !== '');
  const sections: string[][] = [[]];
  for (const line of lines) {
    if (line.startsWith('m=')) sections.push([]);
    (sections[sections.length - 1] as string[]).push(line);
  }
  let added = false;
  const out = sections.map((section, i) => {
    if (i === 0) return section;
    const [mline = ''] = section;
    const [kind, port, , ...pts] = mline.split(' ');
    const media = kind === 'm=audio' || kind === 'm=video';
    if (!media || port === '0') return section;
    const receives = section.some((l) => l === 'a=recvonly' || l === 'a=sendrecv');
    let result = receives ? [...section] : section.filter((l) => !/^a=rtcp-fb:\d+ transport-cc$/.test(l));
    if (!result.some((l) => l.includes('transport-wide-cc'))) {
      added = true;
      const lastExtmap = result.findLastIndex((l) => l.startsWith('a=extmap:'));
      const at = lastExtmap >= 0 ? lastExtmap + 1 : result.findIndex((l) => l.startsWith('a=mid:')) + 1;
      result = [...result.slice(0, at), `a=extmap:${id} ${TRANSPORT_CC_URI}`, ...result.slice(at)];
    }
    if (receives) {
      for (const pt of pts) {
        if (!offeredPts.has(pt) || result.includes(`a=rtcp-fb:${pt} transport-cc`)) continue;
        const last = result.findLastIndex((l) => l.startsWith(`a=rtcp-fb:${pt} `) || l.startsWith(`a=rtpmap:${pt} `));
        result.splice(last + 1, 0, `a=rtcp-fb:${pt} transport-cc`);
      }
    }
    return result;
  });
  return { sdp: `${out.flat().join('\r\n')}\r\n`, added };
}

/**
 * `x-google-start-bitrate` on every video codec of the sections the SFU receives (Chromium reads it from the remote
 * description's fmtp for what it sends); repair formats (rtx, red, ulpfec) are left as they are.
 */
export function addStartBitrate(sdp: string, kbps: number): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const sections: string[][] = [[]];
  for (const line of sdp.split(/\r?\n/).filter((l) => l !== '')) {
    if (line.startsWith('m=')) sections.push([]);
    (sections[sections.length - 1] as string[]).push(line);
  }
  const out = sections.map((section, i) => {
    const [mline = ''] = section;
    const [kind, port, , ...pts] = mline.split(' ');
    if (i === 0 || kind !== 'm=video' || port === '0') return section;
    if (!section.some((l) => l === 'a=recvonly' || l === 'a=sendrecv')) return section;
    const result = [...section];
    for (const pt of pts) {
      const rtpmap = result.find((l) => l.startsWith(`a=rtpmap:${pt} `));
      if (!rtpmap || /^a=rtpmap:\d+ (rtx|red|ulpfec|flexfec)/i.test(rtpmap)) continue;
      const at = result.findIndex((l) => l.startsWith(`a=fmtp:${pt} `));
      if (at >= 0) {
        if (!result[at]?.includes('x-google-start-bitrate'))
          result[at] = `${result[at]};x-google-start-bitrate=${kbps}`;
      } else result.splice(result.indexOf(rtpmap) + 1, 0, `a=fmtp:${pt} x-google-start-bitrate=${kbps}`);
    }
    return result;
  });
  return `${out.flat().join(eol)}${eol}`;
}
