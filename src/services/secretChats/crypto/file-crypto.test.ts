// Encrypted attachments: a file sealed with its own key and IV opens with them and only with them; any changed
// byte of the ciphertext, the key or the IV fails (GCM's tag), with the notice the bubble shows. And the
// envelope's attachment: only this server's encrypted uploads, a voice message's length and waveform checked.
import { describe, expect, it } from 'vitest';
import { VOICE } from '../../../contract/limits';
import { EnvelopeError, parseEnvelope, serializeEnvelope } from './envelope';
import { decryptFile, encryptFile, FILE_UNREADABLE, FileDecryptError } from './file-crypto';

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) % 256);

describe('encryptFile / decryptFile', () => {
  it('round-trips, with a fresh 256-bit key and 12-byte IV each time and the 16-byte tag added', async () => {
    const plain = bytes(5000);
    const a = await encryptFile(plain);
    const b = await encryptFile(new Blob([plain]));
    expect(a.ciphertext.length).toBe(plain.length + 16);
    expect(atob(a.key)).toHaveLength(32);
    expect(atob(a.iv)).toHaveLength(12);
    expect(a.key).not.toBe(b.key);
    expect(a.iv).not.toBe(b.iv);
    expect(Buffer.from(a.ciphertext).equals(Buffer.from(b.ciphertext))).toBe(false);
    expect(Buffer.from(a.ciphertext.subarray(0, 100)).includes(Buffer.from(plain.subarray(0, 32)))).toBe(false);
    expect(await decryptFile(a.ciphertext, a.key, a.iv)).toEqual(plain);
    expect(await decryptFile(b.ciphertext.buffer, b.key, b.iv)).toEqual(plain);
  });

  it('seals an empty file too (the tag alone)', async () => {
    const sealed = await encryptFile(new Uint8Array(0));
    expect(sealed.ciphertext.length).toBe(16);
    expect(await decryptFile(sealed.ciphertext, sealed.key, sealed.iv)).toEqual(new Uint8Array(0));
  });

  it('fails on one changed byte anywhere, a cut, another key or IV, or a malformed key', async () => {
    const sealed = await encryptFile(bytes(1000));
    const flipped = (at: number) => {
      const c = sealed.ciphertext.slice();
      c[at] = (c[at] as number) ^ 1;
      return c;
    };
    const other = await encryptFile(bytes(1000));
    const attempts = [
      () => decryptFile(flipped(0), sealed.key, sealed.iv),
      () => decryptFile(flipped(500), sealed.key, sealed.iv),
      () => decryptFile(flipped(sealed.ciphertext.length - 1), sealed.key, sealed.iv),
      () => decryptFile(sealed.ciphertext.slice(0, -1), sealed.key, sealed.iv),
      () => decryptFile(sealed.ciphertext, other.key, sealed.iv),
      () => decryptFile(sealed.ciphertext, sealed.key, other.iv),
      () => decryptFile(sealed.ciphertext, 'not base64!', sealed.iv),
      () => decryptFile(sealed.ciphertext, btoa('short'), sealed.iv),
    ];
    for (const attempt of attempts) {
      const err = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(FileDecryptError);
      expect((err as Error).message).toBe(FILE_UNREADABLE);
    }
  });
});

describe('an attachment in the envelope', () => {
  const att = {
    url: '/api/secret/uploads/0123456789abcdef0123456789abcdef',
    key: btoa('k'.repeat(32)),
    iv: btoa('i'.repeat(12)),
    name: 'голос.webm',
    type: 'audio/webm',
    size: 1234,
  };
  const text = (a: object) => JSON.stringify({ v: 1, kind: 'text', text: '', attachments: [a] });

  it('carries a voice message’s duration and waveform', () => {
    const voice = { durationMs: 2500, waveform: [0, 50, 100] };
    expect(
      parseEnvelope(serializeEnvelope({ v: 1, kind: 'text', text: '', attachments: [{ ...att, voice }] })),
    ).toEqual({ v: 1, kind: 'text', text: '', attachments: [{ ...att, voice }] });
  });

  it.each([
    ['another path of this server', { ...att, url: '/api/users/me' }],
    ['an ordinary upload', { ...att, url: '/uploads/0123456789abcdef0123456789abcdef' }],
    ['a key with a path after it', { ...att, url: `${att.url}/x` }],
    ['a voice too short', { ...att, voice: { durationMs: VOICE.minDurationMs - 1, waveform: [1] } }],
    ['a voice of a fraction of a millisecond', { ...att, voice: { durationMs: 1000.5, waveform: [1] } }],
    ['an empty waveform', { ...att, voice: { durationMs: 1000, waveform: [] } }],
    ['a peak over the top', { ...att, voice: { durationMs: 1000, waveform: [VOICE.peakMax + 1] } }],
    ['too many peaks', { ...att, voice: { durationMs: 1000, waveform: Array(VOICE.waveformMax + 1).fill(1) } }],
    ['an extra key in voice', { ...att, voice: { durationMs: 1000, waveform: [1], codec: 'opus' } }],
  ])('refuses %s', (_what, a) => {
    expect(() => parseEnvelope(text(a))).toThrow(EnvelopeError);
  });
});
