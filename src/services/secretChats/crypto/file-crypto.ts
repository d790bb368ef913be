// A secret chat's attachments (docs/secret-chats.md, "Files and voice messages"): each file is sealed in the browser
// with AES-256-GCM under a key of its own and a 12-byte IV, both fresh, before it is uploaded; the server stores the
// ciphertext (plaintext + the 16-byte tag) and the key travels inside the MLS message. WebCrypto in the page: the
// key is used once, for one file, and is not a secret of the device (the MLS worker keeps those).

/** Shown instead of an attachment whose bytes do not decrypt (altered, cut short, or not this key's). */
import { FILE_UNREADABLE } from '../../../machines/secretChats/secretChat/secretChat.protocol';

export { FILE_UNREADABLE };

export class FileDecryptError extends Error {
  constructor() {
    super(FILE_UNREADABLE);
    this.name = 'FileDecryptError';
  }
}

export interface SealedFile {
  ciphertext: Uint8Array<ArrayBuffer>;
  /** The raw 256-bit key and the IV, base64 (what the envelope's attachment carries). */
  key: string;
  iv: string;
}

const IV_BYTES = 12;
const KEY_BYTES = 32;

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}
function fromBase64(b64: string, length: number): Uint8Array<ArrayBuffer> {
  let raw: string;
  try {
    raw = atob(b64);
  } catch {
    throw new FileDecryptError();
  }
  if (raw.length !== length) throw new FileDecryptError();
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** Seals one file under a fresh key and IV. */
export async function encryptFile(plain: Blob | Uint8Array<ArrayBuffer>): Promise<SealedFile> {
  const bytes = plain instanceof Blob ? new Uint8Array(await plain.arrayBuffer()) : plain;
  const raw = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, bytes));
  return { ciphertext, key: toBase64(raw), iv: toBase64(iv) };
}

/** The file's bytes, or FileDecryptError when the ciphertext, the key or the IV is not what was sealed. */
export async function decryptFile(
  ciphertext: Uint8Array<ArrayBuffer> | ArrayBuffer,
  key: string,
  iv: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const cryptoKey = await crypto.subtle.importKey('raw', fromBase64(key, KEY_BYTES), 'AES-GCM', false, ['decrypt']);
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv, IV_BYTES) }, cryptoKey, ciphertext),
    );
  } catch {
    throw new FileDecryptError();
  }
}
