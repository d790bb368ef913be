// An import job's row as the contract's ImportJob, the stored export's file, and the names the analysis suggests
// for its authors (docs/behaviour.md §10.38).
import fs from 'node:fs';
import path from 'node:path';
import type { Selectable } from 'kysely';
import type { ByteSource } from '../../src/contract/history-import';
import type { ExportedAuthor } from '../../src/contract/history-import/types';
import type { ImportAuthor, ImportJob, ImportStatus } from '../../src/contract/imports';
import type { Database } from '../db/database';
import type { ImportJobsTable } from '../db/schema';

export type ImportJobRow = Selectable<ImportJobsTable>;

export const NOT_FOUND = 'Импорт не найден';

export function toImportJob(r: ImportJobRow): ImportJob {
  return {
    id: r.id,
    status: r.status as ImportStatus,
    source: r.source === 'telegram' || r.source === 'whatsapp' ? r.source : null,
    chatName: r.chat_name,
    chats: r.chats ? JSON.parse(r.chats) : [],
    chatId: r.chat_id,
    authors: r.authors ? JSON.parse(r.authors) : [],
    total: Number(r.total),
    done: Number(r.done),
    imported: Number(r.imported),
    conversationId: r.conversation_id,
    error: r.error,
    createdAt: r.created_at,
  };
}

/** Where an uploaded export waits on this process's disk until its job ends. */
export const exportPath = (dir: string, jobId: string) => path.join(dir, `${jobId}.zip`);

/** Random access to a stored export (the parsers read the ZIP's directory at its end, then each entry). */
export async function fileSource(file: string): Promise<ByteSource & { close(): Promise<void> }> {
  const handle = await fs.promises.open(file, 'r');
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      const n = Math.max(0, Math.min(length, size - offset));
      const buf = Buffer.allocUnsafe(n);
      let at = 0;
      while (at < n) {
        const { bytesRead } = await handle.read(buf, at, n - at, offset + at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      return buf.subarray(0, at);
    },
    close: () => handle.close(),
  };
}

const fold = (s: string) => s.normalize('NFC').toLocaleLowerCase('ru').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();

/**
 * The person each author probably is, among `people` (a chat's members, or the importer and their friends): the same
 * display name or username, else the only one whose first name is the author's first name. Nobody is suggested twice.
 */
export async function suggestAuthors(
  db: Database,
  authors: readonly ExportedAuthor[],
  people: readonly string[],
): Promise<ImportAuthor[]> {
  const users = people.length
    ? await db.selectFrom('users').select(['id', 'display_name', 'username']).where('id', 'in', people).execute()
    : [];
  const taken = new Set<string>();
  const pick = (author: ExportedAuthor): string | null => {
    const name = fold(author.name);
    if (!name) return null;
    const exact = users.filter((u) => !taken.has(u.id) && (fold(u.display_name) === name || fold(u.username) === name));
    if (exact.length === 1) return exact[0]?.id ?? null;
    const first = name.split(' ')[0];
    const byFirst = users.filter((u) => !taken.has(u.id) && fold(u.display_name).split(' ')[0] === first);
    return byFirst.length === 1 ? (byFirst[0]?.id ?? null) : null;
  };
  return authors.map((a) => {
    const suggested = pick(a);
    if (suggested) taken.add(suggested);
    return { key: a.key, name: a.name, messageCount: a.messageCount, suggestedUserId: suggested };
  });
}

/** The importer's accepted friends (who may be put into a new group the import makes). */
export async function friendsOf(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('contacts')
    .select(['requester_id', 'addressee_id'])
    .where('status', '=', 'ACCEPTED')
    .where((eb) => eb.or([eb('requester_id', '=', userId), eb('addressee_id', '=', userId)]))
    .execute();
  return rows.map((r) => (r.requester_id === userId ? r.addressee_id : r.requester_id));
}
