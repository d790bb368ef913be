// Synthesises the app's two sounds as 16-bit mono WAV files (no downloads, no samples from anywhere):
//   public/sounds/notify.wav — a soft two-tone chime (~0.4 s) for a new message;
//   public/sounds/ring.wav   — a 2 s ring pattern (two short warm trills, then silence) that loops seamlessly.
// Deterministic: the same bytes on every run, so the committed files can be checked against the script.
// Usage: node scripts/make-sounds.mjs [outDir]
import fs from 'node:fs';
import path from 'node:path';

const RATE = 44_100;

/** A tone with a few soft harmonics (bell-ish, not a bare sine) and an exponential decay. */
function bell(samples, start, { freq, dur, gain, decay }) {
  const first = Math.round(start * RATE);
  const count = Math.round(dur * RATE);
  const attack = Math.round(0.006 * RATE); // a few ms of fade-in: no click at the onset
  for (let i = 0; i < count && first + i < samples.length; i++) {
    const t = i / RATE;
    const env = Math.min(1, i / attack) * Math.exp(-t * decay);
    // Fade the last 20 ms to zero so a cut never clicks.
    const tail = Math.min(1, (count - i) / (0.02 * RATE));
    const w = 2 * Math.PI * freq * t;
    const v = Math.sin(w) + 0.32 * Math.sin(2 * w) * Math.exp(-t * 6) + 0.12 * Math.sin(3 * w) * Math.exp(-t * 10);
    samples[first + i] += (gain * env * tail * v) / 1.44;
  }
}

function notify() {
  const samples = new Float64Array(Math.round(0.42 * RATE));
  // A rising major sixth (E5 → C#6): friendly, short, not alarming.
  bell(samples, 0, { freq: 659.25, dur: 0.22, gain: 0.55, decay: 14 });
  bell(samples, 0.12, { freq: 1108.73, dur: 0.3, gain: 0.5, decay: 11 });
  return samples;
}

function ring() {
  // 2.0 s: two trills (each four quick alternating notes) in the first 1.1 s, then quiet, so the loop breathes.
  const samples = new Float64Array(Math.round(2.0 * RATE));
  const notes = [784, 988]; // G5 / B5, a major third
  for (const burst of [0, 0.55]) {
    for (let k = 0; k < 4; k++) {
      bell(samples, burst + k * 0.1, { freq: notes[k % 2], dur: 0.16, gain: 0.5, decay: 16 });
    }
  }
  return samples; // ends in silence and starts from silence: looping needs no crossfade
}

function wav(samples) {
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  const scale = peak > 0 ? 0.89 / peak : 0; // normalise to about -1 dBFS; the player sets the volume
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(Math.round(samples[i] * scale * 32767), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // PCM chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const outDir = path.resolve(process.argv[2] ?? 'public/sounds');
fs.mkdirSync(outDir, { recursive: true });
for (const [name, samples] of [
  ['notify.wav', notify()],
  ['ring.wav', ring()],
]) {
  const file = path.join(outDir, name);
  fs.writeFileSync(file, wav(samples));
  console.log(`${path.relative(process.cwd(), file)}: ${(samples.length / RATE).toFixed(2)} s`);
}
