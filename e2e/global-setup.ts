// Builds the client once so every spec's server serves the real bundle from dist/.
import { execSync } from 'node:child_process';

export default function globalSetup(): void {
  if (process.env.E2E_SKIP_BUILD) return;
  execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
}
