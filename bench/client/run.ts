// `npm run bench:client`: the chats page's performance budget (the targets are listed in bench/README.md).
//   (a) bundle  — the JavaScript of a signed-in load of the chat list until its first paint (the entry's static
//       imports and what the start-up asks for before the paint), KB gzip, budget 150 KB (BENCH_LOAD_BUDGET_KB
//       lowers it, to see the check fail); what is fetched after the paint listed apart; livekit-client not in it.
//   (b) latency — send → painted on the receiver's screen: two real Chromium pages against the real server.
//   (c) scroll  — a 10,000-message conversation: time to first paint of it, frames per second while scrolling.
//   (d) delivery — what users receive: a signed-in cold load of the chats page through the real server under a
//       phone profile: JavaScript bytes on the wire, LCP, FCP, CLS; a repeat visit; a plain static page as baseline.
//   (e) secret  — secret chats' MLS in Chromium, unthrottled and on the phone profile's CPU: encrypt and decrypt of
//       1 KB, adding and removing a device and a member's update of its own leaf in a 50-device group
//       (bench/secret/measure.ts); AES-GCM as baseline.
//   (f) register — main-thread time of a signed-in page becoming a secret-chat device in the background, on the
//       phone profile's CPU (bench/client/secret-register.ts).
//   (g) noise   — the calls' noise suppression: ms of RNNoise processing per 10-ms frame of microphone audio, its
//       own AudioWorklet processor and WebAssembly on Node's V8, and in Chromium on the phone profile's CPU
//       (bench/client/noise.ts).
//   (h) groupcall — a group's call: its mark on another member's list after it starts, and a late joiner's
//       «Присоединиться» → the first decoded remote frame (bench/client/group-call.ts); not in the default set.
// Each figure is printed with a baseline measured in the same run where one means something (bench/README.md).
// Options: BENCH_PARTS=bundle,delivery,latency,scroll,secret,register,noise,groupcall (default all but groupcall), BENCH_CALL_RUNS=5, BENCH_REGISTER_RUNS=3, BENCH_REGISTER_TRACE=<dir> (part f), BENCH_APP_MODULES=15 (largest app modules listed in (a)), N=20 (runs of the secret part), BENCH_LOAD_RUNS=3, BENCH_MESSAGES=100, BENCH_HISTORY=10000,
// BENCH_DIST=<dir> (an existing build with .vite/manifest.json; default: build into a temporary directory),
// BENCH_JSON=<file> (write the results as JSON). Exit code 1 when a target is missed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUDGET_GZIP_BYTES, buildClient, FORBIDDEN_IN_INITIAL, measureBundle } from './bundle';
import { LOAD_WINDOW_BUDGET_GZIP_BYTES, measureLoadWindow } from './load-window';

const env = process.env;
const parts = new Set(
  (env.BENCH_PARTS ?? 'bundle,delivery,latency,scroll,secret,register,noise').split(',').map((s) => s.trim()),
);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

export type Check = [what: string, ok: boolean, value: string];

async function main() {
  const checks: Check[] = [];
  const results: Record<string, unknown> = {};
  // The secret part needs no build of the client.
  const needsBuild = ['bundle', 'delivery', 'latency', 'scroll', 'register', 'groupcall'].some((p) => parts.has(p));
  const tmp = env.BENCH_DIST || !needsBuild ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'beseda-bench-client-'));
  const dist = env.BENCH_DIST ? path.resolve(env.BENCH_DIST) : (tmp as string);
  try {
    if (tmp) {
      console.log(`Building the client into ${dist} …`);
      buildClient(dist);
    }

    if (parts.has('bundle')) {
      const b = measureBundle(dist);
      console.log('\n(a) Initial JavaScript of the chats page (entry chunk + static imports; gzip level 6)');
      console.table(
        b.chunks.map((c) => ({ chunk: c.file, why: c.why, 'raw KB': kb(c.rawBytes), 'gzip KB': kb(c.gzipBytes) })),
      );
      console.log(
        `    total: ${kb(b.totalRaw)} KB raw, ${kb(b.totalGzip)} KB gzip = ${((100 * b.totalGzip) / BUDGET_GZIP_BYTES).toFixed(0)} % of the ${kb(BUDGET_GZIP_BYTES)} KB budget; ${b.lazyChunks} chunk(s) load on demand`,
      );
      const minified = b.packages.reduce((n, p) => n + p.minifiedBytes, 0);
      console.log('    largest parts (minified code from the source maps; gzip of that code alone):');
      for (const p of b.packages.slice(0, 12)) {
        console.log(
          `      ${p.name.padEnd(28)} ${kb(p.minifiedBytes).padStart(7)} KB min  ${((100 * p.minifiedBytes) / minified).toFixed(1).padStart(5)} %  ${kb(p.gzipAloneBytes).padStart(6)} KB gzip`,
        );
      }
      const appModules = Number(env.BENCH_APP_MODULES ?? 15);
      if (appModules > 0) {
        console.log(
          `    largest app modules in it (${appModules} of ${b.appModules.length}; BENCH_APP_MODULES=n for more):`,
        );
        for (const m of b.appModules.slice(0, appModules)) {
          console.log(
            `      ${m.source.padEnd(60)} ${kb(m.minifiedBytes).padStart(7)} KB min  ${kb(m.gzipAloneBytes).padStart(6)} KB gzip`,
          );
        }
      }
      const w = measureLoadWindow(dist);
      const budget = env.BENCH_LOAD_BUDGET_KB ? Number(env.BENCH_LOAD_BUDGET_KB) * 1024 : LOAD_WINDOW_BUDGET_GZIP_BYTES;
      console.log(
        "\n(a) The load window: every script a signed-in load of the chat list fetches before the list's first paint",
      );
      console.table(w.beforePaint.map((c) => ({ chunk: c.file, why: c.why, 'gzip KB': kb(c.gzipBytes) })));
      console.log(`    total before the paint: ${kb(w.beforePaintGzip)} KB gzip of the ${kb(budget)} KB budget`);
      console.log('    fetched once the list has painted (the prefetch; not counted):');
      console.table(w.afterPaint.map((c) => ({ chunk: c.file, why: c.why, 'gzip KB': kb(c.gzipBytes) })));
      console.log(`    total after the paint: ${kb(w.afterPaintGzip)} KB gzip`);
      checks.push([
        `the load window's JS (before the list's first paint) ≤ ${kb(budget)} KB gzip`,
        w.beforePaintGzip <= budget,
        `${kb(w.beforePaintGzip)} KB (entry and its static imports ${kb(b.totalGzip)} KB of ${kb(BUDGET_GZIP_BYTES)})`,
      ]);
      results.loadWindow = w;
      checks.push([
        `${FORBIDDEN_IN_INITIAL.join(', ')} not in the initial JS`,
        b.forbiddenFound.length === 0,
        b.forbiddenFound.length ? `found: ${b.forbiddenFound.join(', ')}` : 'absent',
      ]);
      results.bundle = b;
    }

    if (parts.has('delivery') || parts.has('latency') || parts.has('scroll')) {
      const { runBrowserParts } = await import('./browser-parts');
      await runBrowserParts({ dist, parts, checks, results });
    }

    if (parts.has('register')) {
      const { runRegisterPart } = await import('./secret-register');
      await runRegisterPart({ dist, checks, results });
    }

    if (parts.has('secret')) {
      const { runSecretPart } = await import('./secret');
      await runSecretPart(checks, results);
    }

    if (parts.has('groupcall')) {
      const { runGroupCallPart } = await import('./group-call');
      await runGroupCallPart({ dist, checks, results });
    }

    if (parts.has('noise')) {
      const { runNoisePart } = await import('./noise');
      await runNoisePart(checks, results);
    }
  } finally {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }

  console.log('\nTargets:');
  for (const [what, ok, value] of checks) console.log(`  ${ok ? 'meets ' : 'MISSES'}  ${what}: ${value}`);
  results.checks = checks;
  if (env.BENCH_JSON) fs.writeFileSync(env.BENCH_JSON, JSON.stringify(results, null, 2));
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

await main();
