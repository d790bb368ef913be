// CI repeats on PostgreSQL only the server suites that reach a database (scripts/database-suites.ts): a suite that
// does must never be left out, or PostgreSQL would go untested for it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseSuites, reachesDatabase } from '../../scripts/database-suites';
import { ISOLATED_SERVER_FILES } from '../../vite.config';

const root = path.resolve(import.meta.dirname, '../..');
const at = (f: string) => path.join(root, f);

describe('the suites CI repeats on PostgreSQL', () => {
  it('follows imports through helpers into server/db', () => {
    expect(reachesDatabase(at('tests/server/harness.ts'))).toBe(true);
    expect(reachesDatabase(at('tests/server/messaging-idempotency.test.ts'))).toBe(true);
    expect(reachesDatabase(at('tests/server/sfu-srtp.test.ts'))).toBe(false);
  });

  it('repeats every suite that starts the app or opens a database, and only the others are left out', () => {
    const { database, others } = databaseSuites();
    expect(database).toEqual(
      expect.arrayContaining(['tests/server/messaging-idempotency.test.ts', 'tests/server/sfu-app.test.ts']),
    );
    expect(database).toContain('tests/server/database-failure.test.ts');
    // Every suite left out is the media server's or a unit of its own; a new one that is neither is read here first.
    for (const suite of others)
      expect(suite).toMatch(
        /sfu-|server-graph|search-morphology|search-days|message-id|request-log|import-yield|messaging-bench-tracker|sqlite-statement-gc|database-suites/,
      );
  });
});

describe('the suites that run the Rust SDK', () => {
  it('each runs in a process of its own: one suite’s dispose() would stop the native runtime of the next', () => {
    const dir = path.join(root, 'tests/server');
    const users = fs
      .readdirSync(dir)
      .filter(
        (f) => f.endsWith('.test.ts') && /from '@livekit\/rtc-node'/.test(fs.readFileSync(path.join(dir, f), 'utf8')),
      )
      .map((f) => `tests/server/${f}`);
    expect(users.length).toBeGreaterThan(3);
    for (const suite of users) expect(ISOLATED_SERVER_FILES).toContain(suite);
  });
});
