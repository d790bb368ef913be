// better-sqlite3 12 built against Node 24 aborted the whole process (`Assertion failed: (env) != nullptr` in
// `Statement::~Statement`) when V8 collected a prepared statement in a GC that ran outside any JavaScript context:
// node::ObjectWrap's destructor asks the current context for its environment, and there is none. Kysely prepares a
// statement per query, so a server with traffic died within seconds. better-sqlite3 13 wraps its objects through
// Node-API, whose finalizers need no context. The churn runs in a child process, as the server does, with the heap
// kept busy so that collections come from the event loop's idle tasks rather than from JavaScript.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const CHURN = `
const Database = require(process.argv[1]);
const db = new Database(':memory:');
let n = 0;
let keep = [];
const tick = () => {
  for (let i = 0; i < 2000; i++) {
    db.prepare('select ' + n++).get();
    keep.push(new Array(50).fill(n));
  }
  if (keep.length > 100000) keep = [];
  if (n < 100000) setImmediate(tick);
  else console.log('collected statements survived: ' + n);
};
tick();
`;

describe('SQLite statements collected by the garbage collector', () => {
  it('never abort the process: 100,000 prepared and dropped statements under heap pressure', () => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const r = spawnSync(process.execPath, ['-e', CHURN, driver], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toContain('Assertion failed');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('collected statements survived: 100000');
  });
});
