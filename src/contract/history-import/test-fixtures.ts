// Exports built in code to Telegram Desktop's and WhatsApp's documented formats, zipped at test time.
import { strToU8, type Zippable, zipSync } from 'fflate';
import { bytesSource } from './zip';

export const enc = (s: string) => strToU8(s);

/** A ZIP of the given files (string contents are UTF-8), stored under `folder/` when given. */
export function zipOf(files: Record<string, string | Uint8Array>, folder = ''): Uint8Array {
  const z: Zippable = {};
  for (const [name, body] of Object.entries(files)) z[folder + name] = typeof body === 'string' ? enc(body) : body;
  return zipSync(z, { level: 6 });
}

export const zipSource = (files: Record<string, string | Uint8Array>, folder = '') => bytesSource(zipOf(files, folder));

export const NOW = Date.UTC(2024, 5, 1);
export const t = (iso: string) => Math.floor(Date.parse(`${iso}Z`) / 1000);

/** One Telegram message as Telegram Desktop writes it. */
export function tg(id: number, iso: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { id, type: 'message', date: iso, date_unixtime: String(t(iso)), ...fields };
}

export function telegramChat(messages: unknown[], name = 'Друзья', type = 'private_group', id = 1234567): string {
  return JSON.stringify({ name, type, id, messages }, null, 1);
}

export const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
export const OGG = enc('OggS fake voice bytes');
