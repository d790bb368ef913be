// `npm test`: every check in order — type check, lint, the first screen's byte budget, the vitest projects, the
// Playwright suite — stopping at the first that fails, and printing each phase's wall time at the end (pass or fail),
// so the suite's budget is watched.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const phases = [
  ['tools', 'node scripts/ensure-test-tools.mjs'],
  ['typecheck', 'npm run typecheck'],
  ['lint', 'npm run lint'],
  // The first screen's byte budget: a production build, and every script a signed-in load of the chat list fetches
  // before its first paint, in gzip bytes against 150 KB (bench/client/load-window.ts); about 15 s.
  ['budget', 'BENCH_PARTS=bundle npm run bench:client'],
  ['vitest', 'npx vitest run'],
  ['playwright', 'npm run test:e2e'],
];

const times = [];
let failed = null;
// The machine's load when each phase starts: a phase slowed by other work on the machine shows it here.
const load = () => os.loadavg()[0].toFixed(1);
for (const [name, command] of phases) {
  const started = Date.now();
  const loadAtStart = load();
  const r = spawnSync(command, { stdio: 'inherit', shell: true });
  times.push([name, (Date.now() - started) / 1000, loadAtStart]);
  if (r.status !== 0) {
    failed = name;
    break;
  }
}

const total = times.reduce((s, [, t]) => s + t, 0);
console.log('\nnpm test, wall time by phase:');
for (const [name, t, l] of times)
  console.log(
    `  ${name.padEnd(11)} ${t.toFixed(0).padStart(5)} s   (load average ${l} at its start, ${os.cpus().length} cores)`,
  );
console.log(`  ${'total'.padEnd(11)} ${total.toFixed(0).padStart(5)} s (${(total / 60).toFixed(1)} min)`);
console.log('  slowest files and tests: npm run test:timings');
if (failed) {
  console.log(`\nfailed: ${failed}`);
  process.exit(1);
}
