// The index's cost on the write path alone, in this process: the same INSERT the message writer runs, one message
// per transaction as a lone send commits (or perCommit, as the writer's group commit does under load), into two
// databases of the same build — one with the search index's triggers and its backlog drained every drainEvery
// messages (the server drains once a second: BENCH_RATE messages at the send phase's rate), one without them —
// alternating batches, CPU time of this process per message. Far steadier on a shared machine than the CPU of a
// whole server child, which moves by ±50 % between windows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config';
import { openDatabase, sqliteHandle } from '../../server/db/database';
import { drainSqliteBacklog } from '../../server/search/search-index';
import { chatMessage, seeded } from './russian-text';

export async function writePathCost(messages: number, rounds: number, perCommit = 1, drainEvery = 500) {
  const open = async (withIndex: boolean) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-write-'));
    const { db } = await openDatabase(loadConfig({}, { dataDir, databaseUrl: null }));
    const file = sqliteHandle(db)!;
    if (!withIndex) {
      for (const t of [
        'message_search_insert',
        'message_search_update',
        'message_search_delete',
        'message_search_attachment',
      ]) {
        file.exec(`DROP TRIGGER ${t}`);
      }
    }
    const now = new Date().toISOString();
    file.exec(`INSERT INTO users (id, username, username_lower, display_name, password_hash, status, eblid, created_at)
      VALUES ('u', 'u', 'u', 'u', 'x', 'ONLINE', '0001', '${now}')`);
    file.exec(
      `INSERT INTO conversations (id, title, is_group, created_by, created_at) VALUES ('c', 't', 1, 'u', '${now}')`,
    );
    const insert = file.prepare(
      `INSERT INTO messages (id, conversation_id, sender_id, type, content, reply_to_id, client_message_id, created_at, deleted_at)
       VALUES (?, 'c', 'u', 'TEXT', ?, NULL, ?, ?, NULL) ON CONFLICT (sender_id, client_message_id) DO NOTHING`,
    );
    const one = file.transaction((ids: string[], texts: string[]) => {
      for (const [i, id] of ids.entries()) insert.run(id, texts[i], id, now);
    });
    return { db, dataDir, one, file, withIndex };
  };
  const withIndex = await open(true);
  const without = await open(false);
  const rnd = seeded(5);
  const texts = Array.from({ length: 2000 }, () => chatMessage(rnd));
  let n = 0;
  const batch = (target: typeof withIndex) => {
    const start = process.cpuUsage();
    for (let i = 0; i < messages; i += perCommit) {
      const ids: string[] = [];
      const batchTexts: string[] = [];
      for (let j = 0; j < perCommit; j++, n++) {
        ids.push(`m${n}`);
        batchTexts.push(texts[n % texts.length] as string);
      }
      target.one(ids, batchTexts);
      if (target.withIndex && Math.floor(n / drainEvery) !== Math.floor((n - perCommit) / drainEvery))
        drainSqliteBacklog(target.file);
    }
    const used = process.cpuUsage(start);
    return (used.user + used.system) / messages; // µs per message
  };
  batch(withIndex);
  batch(without);
  const rows: { with: number; without: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    const a = r % 2 ? batch(without) : batch(withIndex);
    const b = r % 2 ? batch(withIndex) : batch(without);
    rows.push(r % 2 ? { with: b, without: a } : { with: a, without: b });
  }
  for (const t of [withIndex, without]) {
    await t.db.destroy();
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  }
  const extra = rows.map((r) => r.with - r.without).sort((a, b) => a - b);
  return { rows, medianExtraUs: extra[Math.floor(extra.length / 2)] ?? 0 };
}
