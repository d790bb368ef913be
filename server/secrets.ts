// Secrets the server signs with. Unset ones are generated once (256 random bits) and kept in
// DATA_DIR/secrets.json with mode 0600, so restarts keep sessions valid and no default secret exists in code.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from './config';

export interface Secrets {
  jwtSecret: Uint8Array;
  livekitApiKey: string;
  livekitApiSecret: string;
  /** VAPID key pair (base64url) that signs Web Push requests (server/push/). */
  vapidPublicKey: string;
  vapidPrivateKey: string;
  /**
   * Encrypts what the database keeps that would let someone act as a person (the authenticator apps' secrets): a
   * copy of the database alone does not give them. Generated once; backups carry it with the database.
   */
  dataKey: Uint8Array;
}

interface Stored {
  jwtSecret?: string;
  livekitApiKey?: string;
  livekitApiSecret?: string;
  vapidPublicKey?: string;
  vapidPrivateKey?: string;
  dataKey?: string;
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
  const dataKey = ensure('dataKey', () => randomBytes(32).toString('base64url'));
  let vapid = { publicKey: config.vapid.publicKey, privateKey: config.vapid.privateKey };
  if (!vapid.publicKey || !vapid.privateKey) {
    if (!stored.vapidPublicKey || !stored.vapidPrivateKey) {
      const made = webpush.generateVAPIDKeys();
      stored.vapidPublicKey = made.publicKey;
      stored.vapidPrivateKey = made.privateKey;
      changed = true;
    }
    vapid = { publicKey: stored.vapidPublicKey, privateKey: stored.vapidPrivateKey };
  }
  if (changed) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  if (jwt.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  return {
    jwtSecret: new TextEncoder().encode(jwt),
    livekitApiKey: lkKey,
    livekitApiSecret: lkSecret,
    vapidPublicKey: vapid.publicKey as string,
    vapidPrivateKey: vapid.privateKey as string,
    dataKey: Buffer.from(dataKey, 'base64url'),
  };
}
