// LiveKit-style identifiers: a type prefix and random base62 text (clients rely on the PA_/TR_ prefixes).
import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function newSid(prefix: 'RM_' | 'PA_' | 'TR_'): string {
  const bytes = randomBytes(12);
  let out = prefix;
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
