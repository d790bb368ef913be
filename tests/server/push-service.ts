// A push service stand-in on loopback for the Web Push tests: it records every request, answers with the status
// a test sets per path (201 by default, or a redirect), and the subscriber side of RFC 8291: a browser's
// subscription keys, and the decryption of an aes128gcm payload with them.
import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PushRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface PushService {
  url: string;
  requests: PushRequest[];
  /** The status (and headers) to answer for a path; 201 otherwise. */
  answer(path: string, status: number, headers?: Record<string, string>): void;
  /** Resolves with the `n`th request (1-based) to `path`, or rejects after `ms`. */
  nth(path: string, n: number, ms?: number): Promise<PushRequest>;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const requests: PushRequest[] = [];
  const answers = new Map<string, { status: number; headers: Record<string, string> }>();
  /** nth's waiters, told of each request as it is recorded. */
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      for (const w of [...waiters]) w();
      const a = answers.get(path) ?? { status: 201, headers: {} };
      res.writeHead(a.status, a.headers);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    answer: (path, status, headers = {}) => answers.set(path, { status, headers }),
    nth(path, n, ms = 5_000) {
      const seen = () => requests.filter((r) => r.path === path);
      const already = seen();
      if (already.length >= n) return Promise.resolve(already[n - 1]);
      return new Promise((resolve, reject) => {
        const look = () => {
          const now = seen();
          if (now.length < n) return;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(now[n - 1]);
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`push service: ${seen().length} request(s) to ${path}, waited for ${n}`));
        }, ms);
        waiters.add(look);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's side of a subscription: the P-256 key pair and the auth secret. */
export function subscriberKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    /** RFC 8291 / RFC 8188 (aes128gcm, one record): the plaintext of a push body. */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLength = body[20];
      const serverKey = body.subarray(21, 21 + idLength);
      const ciphertext = body.subarray(21 + idLength);
      const shared = ecdh.computeSecret(serverKey);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverKey]);
      const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02 and zero padding.
      const end = padded.lastIndexOf(2);
      if (end < 0) throw new Error('no padding delimiter');
      return padded.subarray(0, end).toString('utf8');
    },
  };
}
