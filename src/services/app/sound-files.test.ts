// The shipped sounds are exactly what scripts/make-sounds.mjs synthesises (no downloaded or hand-edited audio),
// valid PCM WAV files of the intended lengths, and the ring loops without a click (silent at both ends).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function readWav(file: string) {
  const buf = fs.readFileSync(file);
  expect(buf.toString('ascii', 0, 4)).toBe('RIFF');
  expect(buf.toString('ascii', 8, 12)).toBe('WAVE');
  const rate = buf.readUInt32LE(24);
  const bits = buf.readUInt16LE(34);
  const dataBytes = buf.readUInt32LE(40);
  const samples = Array.from({ length: dataBytes / 2 }, (_, i) => buf.readInt16LE(44 + i * 2));
  return { buf, rate, bits, seconds: samples.length / rate, samples };
}

describe('sound files', () => {
  it('public/sounds matches a fresh run of scripts/make-sounds.mjs', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sounds-'));
    try {
      execFileSync(process.execPath, ['scripts/make-sounds.mjs', out], { stdio: 'pipe' });
      for (const name of ['notify.wav', 'ring.wav']) {
        expect(fs.readFileSync(path.join(out, name)).equals(fs.readFileSync(path.join('public/sounds', name)))).toBe(
          true,
        );
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('notify is a short chime and ring a 2 s loop that starts and ends in silence', () => {
    const notify = readWav('public/sounds/notify.wav');
    expect(notify.bits).toBe(16);
    expect(notify.seconds).toBeGreaterThan(0.3);
    expect(notify.seconds).toBeLessThan(0.5);
    const ring = readWav('public/sounds/ring.wav');
    expect(ring.seconds).toBeCloseTo(2, 1);
    const peak = Math.max(...ring.samples.map(Math.abs));
    expect(peak).toBeGreaterThan(20_000); // audible, normalised
    const quiet = (xs: number[]) => Math.max(...xs.map(Math.abs)) < peak * 0.02;
    // The loop point joins the silent tail to a fade-in starting at zero: no step, so no click.
    expect(ring.samples[0]).toBe(0);
    expect(quiet(ring.samples.slice(0, 5))).toBe(true);
    expect(quiet(ring.samples.slice(-Math.round(0.5 * ring.rate)))).toBe(true);
  });
});
