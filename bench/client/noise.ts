// (g) noise — the cost of the calls' noise suppression (src/ui/calls/noise-suppression.ts): the package's own
// AudioWorklet processor and WebAssembly (RNNoise, SIMD and plain builds), run here on Node's V8 — the engine of
// Chromium's audio worklet — with the worklet's globals stood in for. An audio worklet hands the processor 128
// samples at a time at 48 kHz; RNNoise works on 480-sample (10-ms) frames. The figure is the processor's time per
// 10 ms of microphone audio, measured over 10 s of a 440-Hz tone in white noise after 1 s of warm-up, and its
// share of real time; the check is that it stays under 1 ms (a tenth of one core).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Check } from './run';

const RATE = 48_000;
const BLOCK = 128;
const FRAME = 480;
const WARM_BLOCKS = Math.ceil(RATE / BLOCK);
const BLOCKS = Math.ceil((10 * RATE) / BLOCK);
/** A tenth of real time: 1 ms of processing per 10 ms of audio. */
export const NOISE_FRAME_BUDGET_MS = 1;

interface Processor {
  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean;
  processor?: unknown;
}
type ProcessorClass = new (options: {
  processorOptions: { wasmBinary: ArrayBuffer; maxChannels: number };
}) => Processor;

async function workletClass(): Promise<ProcessorClass> {
  let registered: ProcessorClass | null = null;
  const g = globalThis as Record<string, unknown>;
  g.AudioWorkletProcessor = class {
    port = { addEventListener() {}, postMessage() {} };
  };
  g.registerProcessor = (_name: string, cls: ProcessorClass) => {
    registered = cls;
  };
  g.sampleRate = RATE;
  // The WebAssembly's Emscripten glue takes Node for what it is and reaches for CommonJS's globals.
  g.__dirname = path.dirname(fileURLToPath(import.meta.url));
  g.require = createRequire(import.meta.url);
  await import(import.meta.resolve('@sapphi-red/web-noise-suppressor/rnnoiseWorklet.js'));
  if (!registered) throw new Error('the worklet registered no processor');
  return registered;
}

/** A tone in white noise from a fixed seed, as one long signal. */
function signal(samples: number): Float32Array {
  const out = new Float32Array(samples);
  let seed = 42;
  for (let i = 0; i < samples; i++) {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    const noise = (seed / 0xffffffff - 0.5) * 0.2;
    out[i] = 0.3 * Math.sin((2 * Math.PI * 440 * i) / RATE) + noise;
  }
  return out;
}

async function measure(cls: ProcessorClass, wasmFile: string) {
  const wasmBinary = fs.readFileSync(
    fileURLToPath(import.meta.resolve(`@sapphi-red/web-noise-suppressor/${wasmFile}`)),
  );
  const proc = new cls({
    processorOptions: {
      wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength),
      maxChannels: 1,
    },
  });
  // The processor compiles its WebAssembly asynchronously.
  for (let i = 0; i < 1_000 && !proc.processor; i++) await new Promise((r) => setImmediate(r));
  if (!proc.processor) throw new Error(`${wasmFile}: the processor never became ready`);
  const input = signal((WARM_BLOCKS + BLOCKS) * BLOCK);
  const out = new Float32Array(BLOCK);
  let changed = 0;
  const run = (from: number, count: number) => {
    for (let b = from; b < from + count; b++) {
      const block = input.subarray(b * BLOCK, (b + 1) * BLOCK);
      proc.process([[block]], [[out]]);
      if (out[0] !== 0) changed++;
    }
  };
  run(0, WARM_BLOCKS);
  const t0 = performance.now();
  run(WARM_BLOCKS, BLOCKS);
  const ms = performance.now() - t0;
  const frames = (BLOCKS * BLOCK) / FRAME;
  return { perFrameMs: ms / frames, realTimeShare: ms / ((BLOCKS * BLOCK * 1000) / RATE), producedSound: changed > 0 };
}

export async function runNoisePart(checks: Check[], results: Record<string, unknown>): Promise<void> {
  const cls = await workletClass();
  const simd = await measure(cls, 'rnnoise_simd.wasm');
  const plain = await measure(cls, 'rnnoise.wasm');
  console.log('\n(g) Noise suppression (RNNoise in its AudioWorklet processor, Node V8; 10 s of 48-kHz audio)');
  console.table(
    Object.entries({ simd, plain }).map(([build, r]) => ({
      build,
      'ms per 10-ms frame': r.perFrameMs.toFixed(3),
      '% of real time': (100 * r.realTimeShare).toFixed(1),
      'sound out': r.producedSound,
    })),
  );
  checks.push([
    `noise suppression ≤ ${NOISE_FRAME_BUDGET_MS} ms per 10-ms frame (SIMD build, as Chromium runs it)`,
    simd.perFrameMs <= NOISE_FRAME_BUDGET_MS && simd.producedSound,
    `${simd.perFrameMs.toFixed(3)} ms (plain build ${plain.perFrameMs.toFixed(3)} ms)`,
  ]);
  results.noise = { simd, plain };
}
