// A participant's subscriptions (LiveKit's down-tracks): which published tracks it receives and how each is placed
// on a peer connection. Both signalling modes sit behind one interface: on /rtc/v1 the client offers and the
// server fills its recvonly m-lines (single-pc-placement.ts); on legacy /rtc the server offers on a second peer
// connection (subscriber-peer.ts).
//
// Bandwidth per subscriber: the REMBs its browser sends and the loss it reports (downlink-estimate.ts) decide,
// each bandwidth round, which layer of each video track fits (layer-allocation.ts); a track whose lowest layer
// does not fit is paused and the client told so (`streamStateUpdate`, as LiveKit does), audio is never held back.
// Probes are padding packets sent between frames of a video it receives.
import { StreamState, StreamStateInfo, StreamStateUpdate } from '@livekit/protocol';
import { DownlinkEstimate } from './downlink-estimate';
import type { PublishedTrack } from './forwarding';
import { rank, TrackSubscription } from './forwarding';
import { LayerAllocator, type VideoDemand } from './layer-allocation';
import type { ResponseMessage } from '../signal';

/** Padding goes out in bursts this often during a probe. */
const PADDING_TICK_MS = 20;
const PADDING_PACKET_BITS = 255 * 8;

/** Puts subscriptions on a peer connection and takes them off again. */
export interface DownTrackPlacement {
  place(sub: TrackSubscription): void;
  drop(sub: TrackSubscription): void;
  close(): void;
}

export class DownTracks {
  readonly subscriptions = new Map<string, TrackSubscription>();
  readonly estimate = new DownlinkEstimate();
  private readonly allocator = new LayerAllocator();
  private paddingTimer: NodeJS.Timeout | null = null;
  private paddingCredit = 0;
  private paddingBps = 0;

  constructor(
    private readonly subscriberSid: string,
    private readonly placement: DownTrackPlacement,
    private readonly send: (message: ResponseMessage) => void = () => {},
  ) {}

  /** Subscribes to a track once; false when already subscribed. */
  add(track: PublishedTrack): boolean {
    if (this.subscriptions.has(track.sid)) return false;
    const sub = new TrackSubscription(track, this.subscriberSid);
    sub.onEstimate = (bps) => this.estimate.observe(bps, Date.now());
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

  /**
   * One bandwidth round (room.ts, after the publishers' layer bitrates were measured): the layer each video
   * subscription may get, pauses and resumes, and whether to probe.
   */
  allocate(now = Date.now()): void {
    let audioBps = 0;
    let mediaBps = 0;
    let loss: number | null = null;
    const demands: VideoDemand[] = [];
    const rids = new Map<string, string[]>();
    for (const sub of this.subscriptions.values()) {
      if (!sub.attached) continue;
      const live = sub.track.liveBitrates(now);
      const reported = sub.takeNewLoss();
      if (reported !== null) loss = Math.max(loss ?? 0, reported);
      mediaBps += live.find((l) => l.rid === sub.layer)?.bps ?? 0;
      if (sub.track.kind === 'audio') {
        for (const l of live) audioBps += l.bps;
        continue;
      }
      if (sub.paused || sub.track.info.muted || live.length === 0) continue;
      const allowed = live.filter((l) => rank(l.rid) <= sub.maxRank);
      const layers = allowed.length > 0 ? allowed : live.slice(0, 1);
      demands.push({ id: sub.track.sid, layers: layers.map((l) => l.bps) });
      rids.set(
        sub.track.sid,
        layers.map((l) => l.rid),
      );
    }
    // Padding counts as sent: a probe's own losses must not cut the estimate below the media that got through.
    this.estimate.observeLoss(loss, mediaBps + this.paddingBps, now);
    const allocation = this.allocator.allocate(this.estimate.current(now), audioBps, demands, now, this.estimate.loss);
    const changes: StreamStateInfo[] = [];
    for (const [sid, index] of allocation) {
      const sub = this.subscriptions.get(sid);
      if (!sub) continue;
      const congested = index < 0;
      const bandwidthRank = congested ? sub.bandwidthRank : rank(rids.get(sid)?.[index] ?? '');
      if (congested === sub.congested && bandwidthRank === sub.bandwidthRank) continue;
      const resumed = sub.congested && !congested;
      sub.congested = congested;
      sub.bandwidthRank = bandwidthRank;
      sub.track.chooseLayers(now);
      if (congested) {
        sub.layer = null;
        sub.targetLayer = null;
        sub.dropRetransmissions();
      }
      if (resumed) sub.askForKeyframe();
      if (congested || resumed) {
        changes.push(
          new StreamStateInfo({
            participantSid: sub.track.publisherSid,
            trackSid: sid,
            state: congested ? StreamState.PAUSED : StreamState.ACTIVE,
          }),
        );
      }
    }
    if (changes.length)
      this.send({ case: 'streamStateUpdate', value: new StreamStateUpdate({ streamStates: changes }) });
    this.setPadding(this.allocator.paddingBps);
  }

  private setPadding(bps: number): void {
    if (bps === this.paddingBps) return;
    this.paddingBps = bps;
    if (bps <= 0) {
      if (this.paddingTimer) clearInterval(this.paddingTimer);
      this.paddingTimer = null;
      this.paddingCredit = 0;
      return;
    }
    const perTick = (bps * PADDING_TICK_MS) / 1000 / PADDING_PACKET_BITS;
    if (this.paddingTimer) clearInterval(this.paddingTimer);
    this.paddingTimer = setInterval(() => {
      this.paddingCredit = Math.min(this.paddingCredit + perTick, perTick * 4);
      const count = Math.floor(this.paddingCredit);
      if (count < 1) return;
      for (const sub of this.subscriptions.values()) {
        if (sub.track.kind === 'video' && sub.sendPadding(count)) {
          this.paddingCredit -= count;
          return;
        }
      }
    }, PADDING_TICK_MS);
    this.paddingTimer.unref();
  }

  close(): void {
    this.setPadding(0);
    for (const s of this.subscriptions.values()) s.detach();
    this.subscriptions.clear();
    this.placement.close();
  }
}
