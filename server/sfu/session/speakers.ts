// Active speakers for a room, sent as LiveKit's server does: `speakersChanged` with the participants who started
// or kept speaking (active, level) and those who stopped (inactive), only when something changed. livekit-client
// turns it into Room.activeSpeakers / ActiveSpeakersChanged and Participant.isSpeaking.
import { SpeakerInfo } from '@livekit/protocol';
import type { Participant } from './participant';

export const SPEAKER_INTERVAL_MS = 500;
/** A level change smaller than this is not worth a message. */
const LEVEL_STEP = 0.05;

export class SpeakerDetector {
  private last = new Map<string, number>();

  /** Who speaks now, for a participant who just joined or resumed. */
  current(): SpeakerInfo[] {
    return [...this.last].map(([sid, level]) => new SpeakerInfo({ sid, level, active: true }));
  }

  /** One window: levels of every unmuted microphone; the updates to send (empty when nothing changed). */
  tick(participants: Iterable<Participant>, now = Date.now()): SpeakerInfo[] {
    const current = new Map<string, number>();
    for (const p of participants) {
      let level = 0;
      for (const t of p.published.values()) {
        if (!t.audioLevel) continue;
        const l = t.audioLevel.sample(now);
        if (!t.info.muted) level = Math.max(level, l);
      }
      if (level > 0 && !p.grants.hidden) current.set(p.sid, level);
    }
    const updates: SpeakerInfo[] = [];
    for (const [sid, level] of current) {
      const before = this.last.get(sid);
      if (before === undefined || Math.abs(before - level) >= LEVEL_STEP)
        updates.push(new SpeakerInfo({ sid, level, active: true }));
    }
    for (const sid of this.last.keys())
      if (!current.has(sid)) updates.push(new SpeakerInfo({ sid, level: 0, active: false }));
    if (updates.length) this.last = current;
    return updates;
  }
}
