// Builds the client once so every spec's server serves the real bundle from dist/. A dist/ built from exactly the
// same inputs (the hash of the client's sources, public files, build configuration, lock file and VITE_ variables,
// kept in dist/ by the last build here) is used as it is: no second build of unchanged code. Any other build
// empties dist/ and takes the stamp with it, so a stale bundle is never reused. E2E_FORCE_BUILD=1 always builds.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
const STAMP = path.join('dist', '.e2e-build-inputs');

function files(p: string): string[] {
  if (!fs.existsSync(p)) return [];
  if (!fs.statSync(p).isDirectory()) return [p];
  return fs
    .readdirSync(p)
    .sort()
    .flatMap((name) => files(path.join(p, name)));
}

function inputsHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) hash.update(`${file}\0`).update(fs.readFileSync(file)).update('\0');
  for (const [k, v] of Object.entries(process.env).sort()) if (k.startsWith('VITE_')) hash.update(`${k}=${v}\0`);
  return hash.digest('hex');
}

export default function globalSetup(): void {
  if (process.env.E2E_SKIP_BUILD) return;
  const want = inputsHash();
  const built = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8') : null;
  if (!process.env.E2E_FORCE_BUILD && built === want && fs.existsSync(path.join('dist', 'index.html'))) return;
  execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
  // Hashed again: a source that changed while the build ran must not be stamped as built.
  if (inputsHash() === want) fs.writeFileSync(STAMP, want);
}
