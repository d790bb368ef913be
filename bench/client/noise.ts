// (g) noise — the cost of the calls' noise suppression (src/ui/calls/noise-suppression.ts): the package's own
// AudioWorklet processor and WebAssembly (RNNoise, SIMD and plain builds), run here on Node's V8 — the engine of
// Chromium's audio worklet — with the worklet's globals stood in for. An audio worklet hands the processor 128
// samples at a time at 48 kHz; RNNoise works on 480-sample (10-ms) frames. The figure is the processor's time per
// 10 ms of microphone audio, measured over 10 s of a 440-Hz tone in white noise after 1 s of warm-up, and its
// share of real time; the check is that it stays under 1 ms (a tenth of one core). The SIMD build is measured once
// more in Chromium's V8 with the phone profile's CPU slowdown (CDP, as part (d)): the figure a phone pays.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { MOBILE } from './delivery';
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

interface Measured {
  perFrameMs: number;
  realTimeShare: number;
  producedSound: boolean;
}

/**
 * The same processor and loop in Chromium's own V8, on the phone profile's CPU (CDP's throttling, as the first-screen
 * part (d) does): the worklet as a module from a blob, its globals stood in for on the page.
 */
async function measureOnPhone(wasmFile: string): Promise<Measured> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
    // tsx names functions with a helper the page does not have.
    await page.evaluate('globalThis.__name = (f) => f');
    const source = fs.readFileSync(
      fileURLToPath(import.meta.resolve('@sapphi-red/web-noise-suppressor/rnnoiseWorklet.js')),
      'utf8',
    );
    const wasm = fs
      .readFileSync(fileURLToPath(import.meta.resolve(`@sapphi-red/web-noise-suppressor/${wasmFile}`)))
      .toString('base64');
    return await page.evaluate(
      async ({ source, wasm, RATE, BLOCK, FRAME, WARM_BLOCKS, BLOCKS }) => {
        type Proc = { process(i: Float32Array[][], o: Float32Array[][]): boolean; processor?: unknown };
        let registered: (new (o: unknown) => Proc) | null = null;
        const g = globalThis as Record<string, unknown>;
        g.AudioWorkletProcessor = class {
          port = { addEventListener() {}, postMessage() {} };
        };
        g.registerProcessor = (_: string, cls: new (o: unknown) => Proc) => {
          registered = cls;
        };
        g.sampleRate = RATE;
        const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
        await import(/* @vite-ignore */ url);
        const Cls = registered as unknown as new (o: unknown) => Proc;
        const bytes = Uint8Array.from(atob(wasm), (c) => c.charCodeAt(0));
        const proc = new Cls({ processorOptions: { wasmBinary: bytes.buffer, maxChannels: 1 } });
        for (let i = 0; i < 1_000 && !proc.processor; i++) await new Promise((r) => setTimeout(r, 1));
        const input = new Float32Array((WARM_BLOCKS + BLOCKS) * BLOCK);
        let seed = 42;
        for (let i = 0; i < input.length; i++) {
          seed = (seed * 1_103_515_245 + 12_345) >>> 0;
          input[i] = 0.3 * Math.sin((2 * Math.PI * 440 * i) / RATE) + (seed / 0xffffffff - 0.5) * 0.2;
        }
        const out = new Float32Array(BLOCK);
        let changed = 0;
        const run = (from: number, count: number) => {
          for (let b = from; b < from + count; b++) {
            proc.process([[input.subarray(b * BLOCK, (b + 1) * BLOCK)]], [[out]]);
            if (out[0] !== 0) changed++;
          }
        };
        run(0, WARM_BLOCKS);
        const t0 = performance.now();
        run(WARM_BLOCKS, BLOCKS);
        const ms = performance.now() - t0;
        return {
          perFrameMs: ms / ((BLOCKS * BLOCK) / FRAME),
          realTimeShare: ms / ((BLOCKS * BLOCK * 1000) / RATE),
          producedSound: changed > 0,
        };
      },
      { source, wasm, RATE, BLOCK, FRAME, WARM_BLOCKS, BLOCKS },
    );
  } finally {
    await browser.close();
  }
}

export async function runNoisePart(checks: Check[], results: Record<string, unknown>): Promise<void> {
  const cls = await workletClass();
  const simd = await measure(cls, 'rnnoise_simd.wasm');
  const plain = await measure(cls, 'rnnoise.wasm');
  const phone = await measureOnPhone('rnnoise_simd.wasm');
  console.log('\n(g) Noise suppression (RNNoise in its AudioWorklet processor, Node V8; 10 s of 48-kHz audio)');
  console.table(
    Object.entries({
      simd,
      plain,
      [`simd, Chromium, phone CPU (${MOBILE.cpuSlowdown}× slower)`]: phone,
    }).map(([build, r]) => ({
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
  checks.push([
    `noise suppression on the phone profile ≤ ${NOISE_FRAME_BUDGET_MS} ms per 10-ms frame (SIMD, Chromium, ${MOBILE.cpuSlowdown}× slower CPU)`,
    phone.perFrameMs <= NOISE_FRAME_BUDGET_MS && phone.producedSound,
    `${phone.perFrameMs.toFixed(3)} ms (${(100 * phone.realTimeShare).toFixed(1)} % of real time)`,
  ]);
  results.noise = { simd, plain, phone };
}
