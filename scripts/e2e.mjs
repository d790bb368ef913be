// `npm run test:e2e`: the Playwright suite in two passes — the specs without media on two workers, then the media
// specs (calls, the embedded media server, TURN) alone on one, so their timing never competes with another browser
// pair for the machine's two cores. Both passes always run; the exit code is non-zero if either failed. Extra
// arguments go to both passes (`npm run test:e2e -- e2e/chats.spec.ts`).
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
let failed = false;
for (const project of ['app', 'media']) {
  const r = spawnSync('npx', ['playwright', 'test', `--project=${project}`, '--pass-with-no-tests', ...args], {
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: `reports/e2e-${project}.json` },
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
