// A recording's waveform from the levels sampled while it was recorded (pure; tests/client/voice-waveform.test.ts):
// at most VOICE.waveformMax peaks, each the loudest sample of its share of the recording, scaled so the
// loudest peak is VOICE.peakMax (a quiet recording still shows its shape) and rounded to integers.
import { VOICE } from '../../contract/limits';

export function waveformOf(levels: readonly number[], peaks: number = VOICE.waveformMax): number[] {
  const clean = levels.map((l) => (Number.isFinite(l) ? Math.min(1, Math.max(0, l)) : 0));
  if (clean.length === 0) return [0];
  const count = Math.min(peaks, clean.length);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * clean.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * clean.length) / count));
    out.push(Math.max(...clean.slice(from, to)));
  }
  const loudest = Math.max(...out);
  return out.map((p) => (loudest > 0 ? Math.round((p / loudest) * VOICE.peakMax) : 0));
}
