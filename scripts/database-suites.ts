// The server suites that reach a database: CI runs these once more on PostgreSQL (`.ci/run`). A suite reaches one when
// its imports, followed through the repository's own files, lead into `server/db/`, or when it names TEST_PG_URL
// itself; the rest (the media server's, the parsers') meet no database, so a second run would repeat the first.
// `node --import tsx scripts/database-suites.ts` prints them, one per line; `--others` prints the rest.
import fs from 'node:fs';
import path from 'node:path';
import { specifiers } from '../tests/client/import-graph';

const root = path.resolve(import.meta.dirname, '..');
const dbDir = path.join(root, 'server/db') + path.sep;

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return undefined;
}

/** Whether `file` leads into server/db through relative imports (memoized over the walk). */
export function reachesDatabase(file: string, seen = new Set<string>()): boolean {
  if (file.startsWith(dbDir)) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  return specifiers(file)
    .filter((s) => s.startsWith('.'))
    .some((s) => {
      const next = resolve(file, s);
      return next !== undefined && reachesDatabase(next, seen);
    });
}

export function databaseSuites(): { database: string[]; others: string[] } {
  const dir = path.join(root, 'tests/server');
  const suites = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f))
    .sort();
  const database: string[] = [];
  const others: string[] = [];
  for (const suite of suites) {
    const named = fs.readFileSync(suite, 'utf8').includes('TEST_PG_URL');
    (named || reachesDatabase(suite) ? database : others).push(path.relative(root, suite));
  }
  return { database, others };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { database, others } = databaseSuites();
  console.log((process.argv.includes('--others') ? others : database).join('\n'));
}
