// The recovery key's backup (docs/secret-chats.md "The recovery key"): a person's secret-chat history, encrypted in
// their browser with a key derived from a phrase the server never sees, stored as opaque chunks. The server keeps
// the derivation's salt and iteration count, a key check value (a fixed text encrypted with the key, so a wrong
// phrase is refused on the device) and the chunks; only their owner reads or writes them.
import { z } from 'zod';
import { Id, IsoDate } from './entities';

export const BACKUP_LIMITS = {
  /** One chunk's ciphertext, in base64 characters. */
  chunkMaxChars: 256 * 1024,
  /** All of a person's chunks together. */
  totalMaxChars: 32 * 1024 * 1024,
  /** Chunks per page of GET /api/secret/backup/chunks. */
  page: 32,
  /** PBKDF2's iteration count: at least this many, at most ten million. */
  iterationsMin: 100_000,
  iterationsMax: 10_000_000,
} as const;

export const BACKUP_NOT_SET = 'Ключ восстановления не настроен';
export const BACKUP_KEY_CHANGED = 'Ключ восстановления сменился: введите новый ключ';
export const BACKUP_FULL = 'Резервная копия переполнена';

const base64 = (min: number, max: number, what: string) =>
  z
    .string()
    .min(min, `${what}: слишком короткое значение`)
    .max(max, `${what}: слишком большое значение`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, `${what}: ожидается base64`);

const Version = z.number().int('Версия — целое число').min(1, 'Версия — от 1');

/** What the server knows of a person's backup (null when there is no recovery key). */
export const BackupInfo = z.object({
  /** Grows each time a new recovery key replaces the old one: chunks of another version are refused (409). */
  version: z.number().int(),
  salt: z.string(),
  iterations: z.number().int(),
  check: z.string(),
  createdAt: IsoDate,
  chunks: z.number().int(),
  size: z.number().int(),
});
export type BackupInfo = z.infer<typeof BackupInfo>;
export const BackupInfoResponse = z.object({ backup: BackupInfo.nullable() });

/** POST /api/secret/backup/key: a new recovery key (any earlier one and its chunks are deleted). */
export const BackupKeyBody = z.strictObject({
  salt: base64(16, 88, 'Соль'),
  iterations: z
    .number()
    .int('Число итераций — целое')
    .min(BACKUP_LIMITS.iterationsMin, `Не меньше ${BACKUP_LIMITS.iterationsMin} итераций`)
    .max(BACKUP_LIMITS.iterationsMax, `Не больше ${BACKUP_LIMITS.iterationsMax} итераций`),
  check: base64(16, 512, 'Проверочное значение'),
});

/** POST /api/secret/backup: one more chunk of encrypted envelopes, under the current key's version. */
export const BackupChunkBody = z.strictObject({
  version: Version,
  conversationId: Id.optional(),
  entries: base64(4, BACKUP_LIMITS.chunkMaxChars, 'Резервная копия'),
});
export const BackupChunkResponse = z.object({ seq: z.number().int(), size: z.number().int() });

/** GET /api/secret/backup/chunks?after=: the chunks after seq `after`, oldest first. */
export const BackupChunksQuery = z.strictObject({
  after: z.coerce.number().int('after — целое число').min(0, 'after не может быть отрицательным').default(0),
});
export const BackupChunk = z.object({
  seq: z.number().int(),
  version: z.number().int(),
  conversationId: Id.nullable(),
  entries: z.string(),
});
export const BackupChunksResponse = z.object({ chunks: z.array(BackupChunk), hasMore: z.boolean() });
