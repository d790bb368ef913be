// `npm test`: every check in order — type check, lint, the vitest projects, the Playwright suite — stopping at the
// first that fails, and printing each phase's wall time at the end (pass or fail), so the suite's budget is watched.
import { spawnSync } from 'node:child_process';

const phases = [
  ['tools', 'node scripts/ensure-test-tools.mjs'],
  ['typecheck', 'npm run typecheck'],
  ['lint', 'npm run lint'],
  ['vitest', 'npx vitest run'],
  ['playwright', 'npm run test:e2e'],
];

const times = [];
let failed = null;
for (const [name, command] of phases) {
  const started = Date.now();
  const r = spawnSync(command, { stdio: 'inherit', shell: true });
  times.push([name, (Date.now() - started) / 1000]);
  if (r.status !== 0) {
    failed = name;
    break;
  }
}

const total = times.reduce((s, [, t]) => s + t, 0);
console.log('\nnpm test, wall time by phase:');
for (const [name, t] of times) console.log(`  ${name.padEnd(11)} ${t.toFixed(0).padStart(5)} s`);
console.log(`  ${'total'.padEnd(11)} ${total.toFixed(0).padStart(5)} s (${(total / 60).toFixed(1)} min)`);
console.log('  slowest files and tests: npm run test:timings');
if (failed) {
  console.log(`\nfailed: ${failed}`);
  process.exit(1);
}
