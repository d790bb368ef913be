// Kysely builds an operation tree and compiles it to SQL on every call: for the list's main query that was a
// quarter of a millisecond, as much as running it. A hot query whose shape never changes is compiled once
// per dialect, with a placeholder for each argument, and afterwards runs the same SQL text with the real
// arguments (on SQLite the statement cache in database.ts then also skips SQLite's own compilation).
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Database } from './database';

const placeholder = (i: number) => `\u0000prepared-argument-${i}\u0000`;

interface Template<Row> {
  compiled: CompiledQuery<Row>;
  /** For each compiled parameter: the index of the argument it stands for, or -1 for a constant. */
  slots: number[];
}

/**
 * `build` must use its string arguments only as values (in where, values, set…), never to choose the
 * query's shape: it runs once per dialect, with placeholders. The returned function runs the query on `db`
 * (the database or a transaction) with the real arguments.
 */
export function preparedQuery<Row, N extends number>(
  arity: N,
  build: (db: Database, ...args: string[]) => Compilable<Row>,
): (db: Database, ...args: (string | null)[]) => Promise<QueryResult<Row>> {
  const templates = new Map<object, Template<Row>>();
  function template(db: Database): Template<Row> {
    const adapter = db.getExecutor().adapter;
    let t = templates.get(adapter);
    if (!t) {
      const names = Array.from({ length: arity }, (_, i) => placeholder(i));
      const compiled = build(db, ...names).compile();
      const slots = compiled.parameters.map((p) => (typeof p === 'string' ? names.indexOf(p) : -1));
      const lost = names.findIndex((_, i) => !slots.includes(i));
      if (lost >= 0) throw new Error(`preparedQuery: argument ${lost} does not reach the compiled parameters`);
      t = { compiled, slots };
      templates.set(adapter, t);
    }
    return t;
  }
  return async (db, ...args) => {
    if (args.length !== arity) throw new Error(`preparedQuery: ${arity} arguments expected, got ${args.length}`);
    const { compiled, slots } = template(db);
    const parameters = compiled.parameters.map((p, i) => {
      const slot = slots[i] as number;
      return slot >= 0 ? args[slot] : p;
    });
    return db.executeQuery<Row>({ ...compiled, parameters });
  };
}
