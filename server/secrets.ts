// Secrets the server signs with. Unset ones are generated once (256 random bits) and kept in
// DATA_DIR/secrets.json with mode 0600, so restarts keep sessions valid and no default secret exists in code.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config';

export interface Secrets {
  jwtSecret: Uint8Array;
  livekitApiKey: string;
  livekitApiSecret: string;
}

interface Stored {
  jwtSecret?: string;
  livekitApiKey?: string;
  livekitApiSecret?: string;
}

export function loadSecrets(config: Config): Secrets {
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: Stored = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Stored;
  let changed = false;
  const ensure = (key: keyof Stored, make: () => string): string => {
    if (!stored[key]) {
      stored[key] = make();
      changed = true;
    }
    return stored[key] as string;
  };
  const jwt = config.jwtSecret ?? ensure('jwtSecret', () => randomBytes(32).toString('base64url'));
  const lkKey = config.livekit.apiKey ?? ensure('livekitApiKey', () => `API${randomBytes(6).toString('hex')}`);
  const lkSecret = config.livekit.apiSecret ?? ensure('livekitApiSecret', () => randomBytes(32).toString('base64url'));
  if (changed) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  if (jwt.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  return { jwtSecret: new TextEncoder().encode(jwt), livekitApiKey: lkKey, livekitApiSecret: lkSecret };
}
