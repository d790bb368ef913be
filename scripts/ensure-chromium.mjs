// Browser tests use Debian's Chromium (no browser downloads here). Installs it when missing.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const exe = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(exe)) {
  console.log(`${exe} not found: installing Debian's chromium (apt-get)…`);
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  execSync(`${sudo}apt-get update -qq && ${sudo}apt-get install -y -qq chromium`, { stdio: 'inherit' });
}
