// Connection quality per participant, sent as LiveKit's `connectionQuality` (excellent / good / poor / lost with
// a MOS-like score), from what the SFU sees on the wire: loss on the tracks it receives from the participant
// (counted from RTP sequence numbers), and loss, jitter and round trip from the receiver reports the participant
// sends about the tracks it receives. The score is the ITU-T G.107 E-model in its common simplified form: delay
// from round trip and jitter, and 4 R points per percent of loss (Opus without FEC or RED, as this SFU
// negotiates it). Excellent above MOS 4.1, good above 3.6, poor below; lost when an unmuted track stopped arriving.
import { ConnectionQuality, ConnectionQualityInfo } from '@livekit/protocol';
import type { Participant } from './participant';

export const QUALITY_INTERVAL_MS = 2000;
/** Loss is judged over this many intervals, so a few unlucky packets do not flip the rating. */
const LOSS_WINDOWS = 3;
const LOSS_WEIGHT = 4;

export interface LineStats {
  /** 0–1 */
  loss: number;
  rttMs: number;
  jitterMs: number;
}

export function mos({ loss, rttMs, jitterMs }: LineStats): number {
  const latency = rttMs / 2 + 2 * jitterMs + 10;
  let r = latency < 160 ? 93.2 - latency / 40 : 93.2 - (latency - 120) / 10;
  r -= loss * 100 * LOSS_WEIGHT;
  r = Math.max(0, Math.min(100, r));
  return 1 + 0.035 * r + 0.000007 * r * (r - 60) * (100 - r);
}

export function rating(score: number): ConnectionQuality {
  if (score >= 4.1) return ConnectionQuality.EXCELLENT;
  if (score >= 3.6) return ConnectionQuality.GOOD;
  return ConnectionQuality.POOR;
}

interface History {
  expected: number[];
  lost: number[];
}

export class QualityMonitor {
  private readonly history = new WeakMap<Participant, History>();

  /** One interval: a rating for every participant. */
  tick(participants: Iterable<Participant>): ConnectionQualityInfo[] {
    const out: ConnectionQualityInfo[] = [];
    for (const p of participants) {
      if (p.grants.hidden) continue;
      out.push(this.rate(p));
    }
    return out;
  }

  private rate(p: Participant): ConnectionQualityInfo {
    let expected = 0;
    let lost = 0;
    let silent = false;
    for (const t of p.published.values()) {
      const w = t.takeLoss();
      expected += w.expected;
      lost += w.lost;
      if (w.expected === 0 && !t.info.muted && t.packetsIn > 0) silent = true;
    }
    const h = this.history.get(p) ?? { expected: [], lost: [] };
    this.history.set(p, h);
    h.expected.push(expected);
    h.lost.push(lost);
    if (h.expected.length > LOSS_WINDOWS) {
      h.expected.shift();
      h.lost.shift();
    }
    // Downstream: what the participant reports about the tracks it receives (worst of them).
    let downLoss = 0;
    let rttMs = 0;
    let jitterMs = 0;
    for (const sub of p.subscriptions.values()) {
      const r = sub.receiverReport();
      if (!r) continue;
      downLoss = Math.max(downLoss, r.loss);
      rttMs = Math.max(rttMs, r.rttMs);
      jitterMs = Math.max(jitterMs, r.jitterMs);
    }
    const sumExpected = h.expected.reduce((a, b) => a + b, 0);
    const upLoss = sumExpected > 0 ? h.lost.reduce((a, b) => a + b, 0) / sumExpected : 0;
    const score = mos({ loss: Math.max(upLoss, downLoss), rttMs, jitterMs });
    const quality = silent ? ConnectionQuality.LOST : rating(score);
    return new ConnectionQualityInfo({ participantSid: p.sid, quality, score });
  }
}
