// A participant's subscriptions (LiveKit's down-tracks): which published tracks it receives and how each is placed
// on a peer connection. Both signalling modes sit behind one interface: on /rtc/v1 the client offers and the
// server fills its recvonly m-lines (single-pc-placement.ts); on legacy /rtc the server offers on a second peer
// connection (subscriber-peer.ts).
import type { PublishedTrack } from './forwarding';
import { TrackSubscription } from './forwarding';

/** Puts subscriptions on a peer connection and takes them off again. */
export interface DownTrackPlacement {
  place(sub: TrackSubscription): void;
  drop(sub: TrackSubscription): void;
  close(): void;
}

export class DownTracks {
  readonly subscriptions = new Map<string, TrackSubscription>();

  constructor(
    private readonly subscriberSid: string,
    private readonly placement: DownTrackPlacement,
  ) {}

  /** Subscribes to a track once; false when already subscribed. */
  add(track: PublishedTrack): boolean {
    if (this.subscriptions.has(track.sid)) return false;
    const sub = new TrackSubscription(track, this.subscriberSid);
    this.subscriptions.set(track.sid, sub);
    this.placement.place(sub);
    return true;
  }

  remove(trackSid: string): void {
    const sub = this.subscriptions.get(trackSid);
    if (!sub) return;
    this.subscriptions.delete(trackSid);
    this.placement.drop(sub);
  }

  get(trackSid: string): TrackSubscription | undefined {
    return this.subscriptions.get(trackSid);
  }

  /** The peer connection (re)connected: every placed subscription needs a fresh keyframe. */
  refreshVideo(): void {
    for (const sub of this.subscriptions.values()) if (sub.attached) sub.askForKeyframe();
  }

  close(): void {
    for (const s of this.subscriptions.values()) s.detach();
    this.subscriptions.clear();
    this.placement.close();
  }
}
