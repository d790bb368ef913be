// The tests' Debian tools, installed when missing (no browser downloads here): Chromium's headless shell, which
// Playwright drives (and the full Chromium the benches use),
// coturn, the TURN server the call specs relay through (e2e/sfu-page/coturn.ts), and pebble, the ACME test CA the
// HTTPS suite gets certificates from (tests/server/pebble.ts).
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const tools = [
  { exe: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell', pkg: 'chromium-headless-shell' },
  // The benches' phone profile and group call use the full browser.
  { exe: '/usr/bin/chromium', pkg: 'chromium' },
  { exe: '/usr/bin/turnserver', pkg: 'coturn' },
  { exe: '/usr/bin/pebble', pkg: 'pebble' },
];
const missing = tools.filter((t) => !fs.existsSync(t.exe));
if (missing.length > 0) {
  const pkgs = missing.map((t) => t.pkg).join(' ');
  console.log(`${missing.map((t) => t.exe).join(', ')} not found: installing Debian's ${pkgs} (apt-get)…`);
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  execSync(`${sudo}apt-get update -qq && ${sudo}apt-get install -y -qq ${pkgs}`, { stdio: 'inherit' });
}
