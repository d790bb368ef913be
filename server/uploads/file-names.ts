// Names for uploaded files: stored keys are random (128 bits) and never derived from the client's name;
// the client's name is only kept, cleaned, to be shown and offered in Content-Disposition.
import { randomBytes } from 'node:crypto';

const KEY = /^[0-9a-f]{32}$/;

/** No extension: the type is known only after the bytes are in, and it is served from the database. */
export const newStorageKey = () => randomBytes(16).toString('hex');

export const isStorageKey = (key: string) => KEY.test(key);

/** The last path segment of the client's name, without control characters, quotes or slashes. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}"<>|*?:]/gu, '')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 200);
  return cleaned || 'file';
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name, so Cyrillic names survive and nothing can break out. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}
