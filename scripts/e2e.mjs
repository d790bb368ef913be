// `npm run test:e2e`: the Playwright suite in two passes — most specs on two workers, then the serial ones (calls,
// the embedded media server, TURN, secret chats: playwright.config.ts) alone on one, so their timing never competes
// with another browser pair for the machine's two cores. Both passes always run; the exit code is non-zero if either failed. Extra
// arguments go to both passes (`npm run test:e2e -- e2e/chats.spec.ts`).
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
let failed = false;
for (const project of ['app', 'serial']) {
  // Each pass its own output folder: a pass empties its folder first, and the first one's failures stay readable.
  const output = `--output=test-results/${project}`;
  const r = spawnSync('npx', ['playwright', 'test', `--project=${project}`, output, '--pass-with-no-tests', ...args], {
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: `reports/e2e-${project}.json` },
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
