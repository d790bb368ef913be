// A participant's published tracks (LiveKit's up-track manager): addTrack requests waiting for their m-line,
// tracks that became live when an offer carried them, mute, and tracks whose m-line stopped sending.
import { type AddTrackRequest, TrackInfo, TrackType } from '@livekit/protocol';
import type { Upstream } from '../media/endpoints';
import { PublishedTrack } from '../media/forwarding';
import { newSid } from '../ids';
import type { OfferedSection } from './sdp';

export class UpTracks {
  readonly published = new Map<string, PublishedTrack>();
  private readonly pendingByCid = new Map<string, TrackInfo>();

  constructor(
    private readonly publisherSid: string,
    private readonly upstreamOf: (mid: string) => Upstream | null,
  ) {}

  /** An addTrack request: the TrackInfo to confirm in trackPublished; the track goes live with its m-line. */
  add(req: AddTrackRequest): TrackInfo {
    const isAudio = req.type === TrackType.AUDIO;
    const info = new TrackInfo({
      sid: newSid('TR_'),
      type: req.type,
      name: req.name,
      muted: req.muted,
      width: req.width,
      height: req.height,
      source: req.source,
      disableDtx: req.disableDtx,
      stereo: req.stereo,
      disableRed: true,
      encryption: req.encryption,
      stream: req.stream,
      mimeType: isAudio ? 'audio/opus' : 'video/VP8',
      layers: req.layers,
      simulcast: req.layers.length > 1,
      audioFeatures: req.audioFeatures,
    });
    this.pendingByCid.set(req.cid, info);
    return info;
  }

  /** true when the mute state changed. */
  setMuted(trackSid: string, muted: boolean): boolean {
    const track = this.published.get(trackSid);
    if (!track || track.info.muted === muted) return false;
    track.info.muted = muted;
    if (!muted) track.requestKeyframe(undefined, true);
    return true;
  }

  /** m-lines the client sends on whose msid track id is a cid from addTrack become published tracks. */
  takePublications(sections: OfferedSection[]): PublishedTrack[] {
    const out: PublishedTrack[] = [];
    for (const s of sections) {
      if (!s.trackId || (s.direction !== 'sendonly' && s.direction !== 'sendrecv')) continue;
      const info = this.pendingByCid.get(s.trackId);
      const upstream = info ? this.upstreamOf(s.mid) : null;
      if (!info || !upstream || (s.kind !== 'audio' && s.kind !== 'video')) continue;
      this.pendingByCid.delete(s.trackId);
      info.mid = s.mid;
      const track = new PublishedTrack(info, this.publisherSid, s.kind, upstream);
      this.published.set(info.sid, track);
      out.push(track);
    }
    return out;
  }

  /** A published m-line that stopped sending (unpublishTrack removes the sender) unpublishes its track. */
  dropPublications(sections: OfferedSection[]): PublishedTrack[] {
    const out: PublishedTrack[] = [];
    for (const track of this.published.values()) {
      const s = sections.find((x) => x.mid === track.info.mid);
      if (s && s.port !== 0 && (s.direction === 'sendonly' || s.direction === 'sendrecv')) continue;
      this.published.delete(track.sid);
      track.close();
      out.push(track);
    }
    return out;
  }

  close(): void {
    for (const t of this.published.values()) t.close();
  }
}
