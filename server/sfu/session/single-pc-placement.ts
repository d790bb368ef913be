// Subscriptions on the single peer connection (/rtc/v1). The server cannot offer there: it asks the client for
// recvonly m-lines (mediaSectionsRequirement), and in its next answer turns free ones into sendonly sections
// carrying the subscribed tracks. Used m-lines are never recycled for another track.
import { MediaSectionsRequirement } from '@livekit/protocol';
import type { DownTrackPlacement } from '../media/down-tracks';
import type { TrackSubscription } from '../media/forwarding';
import type { MediaPeer } from './media-peer';
import type { OfferedSection } from './sdp';
import type { ResponseMessage } from '../signal';

type Kind = 'audio' | 'video';

export class SinglePcPlacement implements DownTrackPlacement {
  /** mids whose transceiver has been used to send: never reassigned to another track. */
  private readonly usedMids = new Set<string>();
  private readonly midToTrack = new Map<string, string>();
  private readonly waiting = new Set<TrackSubscription>();
  private lastOffer: OfferedSection[] = [];
  private sectionsRequested = false;
  private closed = false;

  constructor(
    private readonly peer: Pick<MediaPeer, 'downstream' | 'deactivate'>,
    private readonly send: (message: ResponseMessage) => void,
  ) {}

  place(sub: TrackSubscription): void {
    this.waiting.add(sub);
    this.requestSections();
  }

  drop(sub: TrackSubscription): void {
    this.waiting.delete(sub);
    sub.detach();
    for (const [mid, sid] of this.midToTrack) if (sid === sub.track.sid) this.midToTrack.delete(mid);
  }

  close(): void {
    this.closed = true;
    this.waiting.clear();
  }

  /** The mids carrying subscribed tracks, for the answer's midToTrackId. */
  midToTrackId(): Record<string, string> {
    return Object.fromEntries(this.midToTrack);
  }

  /** Called with the client's offer applied and before the answer is made: fill free sections. */
  fillSections(offer: OfferedSection[]): void {
    this.lastOffer = offer;
    const free = this.freeSections();
    for (const sub of [...this.waiting]) {
      const section = free[sub.track.kind].shift();
      if (!section) continue;
      // livekit-client reads "<participant sid>|<track sid>" from the stream id.
      const downstream = this.peer.downstream(
        section.mid,
        sub.track.kind,
        `${sub.track.publisherSid}|${sub.track.sid}`,
      );
      if (!downstream) continue;
      this.waiting.delete(sub);
      this.usedMids.add(section.mid);
      this.midToTrack.set(section.mid, sub.track.sid);
      sub.attach(downstream);
    }
    // Sections of tracks that went away are answered inactive (and stay in BUNDLE, see fixAnswer).
    for (const mid of this.usedMids) {
      if (!this.midToTrack.has(mid)) this.peer.deactivate(mid);
    }
  }

  /** The answer went out: ask for more sections if subscriptions are still waiting. */
  answered(): void {
    this.sectionsRequested = false;
    this.requestSections();
  }

  /**
   * Make the client add recvonly sections (or just re-offer when free ones already exist) so waiting
   * subscriptions can be placed in the next answer.
   */
  private requestSections(): void {
    if (this.sectionsRequested || this.closed || this.waiting.size === 0) return;
    const need: Record<Kind, number> = { audio: 0, video: 0 };
    for (const s of this.waiting) need[s.track.kind]++;
    const free = this.freeSections();
    const numAudios = Math.max(0, need.audio - free.audio.length);
    const numVideos = Math.max(0, need.video - free.video.length);
    this.sectionsRequested = true;
    this.send({ case: 'mediaSectionsRequirement', value: new MediaSectionsRequirement({ numAudios, numVideos }) });
  }

  private freeSections(): Record<Kind, OfferedSection[]> {
    const free: Record<Kind, OfferedSection[]> = { audio: [], video: [] };
    for (const s of this.lastOffer) {
      if (s.direction !== 'recvonly' || s.port === 0 || this.usedMids.has(s.mid)) continue;
      if (s.kind === 'audio' || s.kind === 'video') free[s.kind].push(s);
    }
    return free;
  }
}
