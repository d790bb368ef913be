// @vitest-environment node
// The REST contract is split per feature: src/contract/api/<feature>.routes.ts names each route with its method and
// path (zod-free), src/contract/api/<feature>.ts joins its schemas, and src/contract/routes.ts and api.ts join the
// features. A feature is named as the server folder that serves it: each route of `<feature>.routes.ts` is
// registered (contractRoute) under server/<feature>/ and nowhere else. A route is declared by one feature only (a
// second declaration would silently replace the first in the joined table) and no method and path are declared twice.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/contract/api';
import type { RouteInfo } from '../../src/contract/routes';
import { routes } from '../../src/contract/routes';

const root = path.resolve(__dirname, '../..');
const apiDir = path.join(root, 'src/contract/api');

/** Where a feature's routes are registered when that is not server/<feature>/: liveness in the app itself. */
const REGISTERED_IN: Record<string, string[]> = { health: ['server/app.ts', 'server/observability/'] };

type Tables = Map<string, Record<string, RouteInfo>>;

async function featureTables(): Promise<Tables> {
  const out: Tables = new Map();
  for (const file of fs
    .readdirSync(apiDir)
    .filter((f) => f.endsWith('.routes.ts'))
    .sort()) {
    const feature = file.replace(/\.routes\.ts$/, '');
    const mod = (await import(path.join(apiDir, file))) as Record<string, unknown>;
    const table = mod[`${feature}Routes`] as Record<string, RouteInfo> | undefined;
    if (table) out.set(feature, table);
  }
  return out;
}

/** Names declared by more than one feature, and method + path pairs declared twice. */
function duplicates(tables: Tables): string[] {
  const owner = new Map<string, string>();
  const where = new Map<string, string>();
  const out: string[] = [];
  for (const [feature, table] of tables)
    for (const [name, info] of Object.entries(table)) {
      const first = owner.get(name);
      if (first) out.push(`${name}: declared by ${first} and ${feature}`);
      else owner.set(name, feature);
      const key = `${info.method} ${info.path}`;
      const same = where.get(key);
      if (same) out.push(`${key}: both ${same} and ${name}`);
      else where.set(key, name);
    }
  return out;
}

function serverFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return serverFiles(rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

/** Each route name with the server files that register it. */
function registrations(files: { file: string; text: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { file, text } of files)
    for (const m of text.matchAll(/contractRoute\(\s*(?:\w+,\s*)?'(\w+)'/g))
      out.set(m[1], [...(out.get(m[1]) ?? []), file]);
  return out;
}

/** Routes registered outside their feature's server folder, or not at all. */
function misplaced(tables: Tables, registered: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [feature, table] of tables) {
    const places = REGISTERED_IN[feature] ?? [`server/${feature}/`];
    for (const name of Object.keys(table)) {
      const files = registered.get(name) ?? [];
      if (files.length === 0) out.push(`${name} (${feature}) is registered nowhere`);
      for (const f of files)
        if (!places.some((p) => f === p || (p.endsWith('/') && f.startsWith(p))))
          out.push(`${name} (${feature}) is registered in ${f}`);
    }
  }
  return out;
}

describe('the contract, one module per feature', () => {
  it('every route is declared by one feature, once, and the joined tables hold exactly those', async () => {
    const tables = await featureTables();
    expect(tables.size).toBeGreaterThanOrEqual(15);
    expect(duplicates(tables)).toEqual([]);
    const declared = [...tables.values()].flatMap((t) => Object.keys(t)).sort();
    expect(Object.keys(routes).sort()).toEqual(declared);
    expect(Object.keys(api).sort()).toEqual(declared);
    for (const [name, info] of Object.entries(routes)) expect(api[name as keyof typeof api]).toMatchObject(info);
  });

  it("each feature's routes are registered in the server folder of the same name", async () => {
    const tables = await featureTables();
    const files = serverFiles('server').map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
    expect(misplaced(tables, registrations(files))).toEqual([]);
  });

  it('probe: a name declared twice, a path declared twice and a route served by another folder fail', () => {
    const tables: Tables = new Map<string, Record<string, RouteInfo>>([
      ['polls', { votePoll: { method: 'POST', path: '/polls/vote', auth: true } }],
      [
        'messages',
        {
          votePoll: { method: 'POST', path: '/messages/vote', auth: true },
          react: { method: 'POST', path: '/polls/vote', auth: true },
        },
      ],
    ]);
    expect(duplicates(tables)).toEqual([
      'votePoll: declared by polls and messages',
      'POST /polls/vote: both votePoll and react',
    ]);
    const registered = registrations([
      { file: 'server/messages/messages.routes.ts', text: "contractRoute(app, 'votePoll', h);" },
      { file: 'server/messages/reactions.ts', text: "contractRoute(\n  app,\n  'react', h);" },
    ]);
    expect(misplaced(new Map([['polls', tables.get('polls')!]]), registered)).toEqual([
      'votePoll (polls) is registered in server/messages/messages.routes.ts',
    ]);
    expect(misplaced(new Map([['messages', { react: tables.get('messages')!.react }]]), registered)).toEqual([]);
    expect(
      misplaced(new Map([['push', { pushKey: { method: 'GET', path: '/push/key', auth: true } }]]), registered),
    ).toEqual(['pushKey (push) is registered nowhere']);
  });
});
