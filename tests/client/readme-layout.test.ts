// @vitest-environment node
// README's layout section names every folder as it is: each feature folder of src/machines, src/ui and src/services,
// each top-level folder of src/, of src/contract and of server/ and the composition root's, once each, and no folder
// that is gone. Its table «One feature, two names» says which client feature each server folder serves whose name is
// not a client feature's (or that it is the server's own), so a newcomer finds both sides of a feature.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

/** The fenced block under README's "## Layout" heading. */
function layoutBlock(readme: string): string {
  const section = readme.split(/^## Layout$/m)[1]?.split(/^## /m)[0] ?? '';
  return /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
}

const dirs = (dir: string) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

/** How often `name/` stands as a folder name in the block (not as part of a longer name or path). */
const mentions = (block: string, name: string) =>
  block.match(new RegExp(`(?<![\\w/.-])${name.replace(/[.]/g, '\\.')}/(?![\\w])`, 'g'))?.length ?? 0;

/** The folders the block must name, each with how often: once per layer it appears in. */
function expected(): Map<string, number> {
  const want = new Map<string, number>();
  const add = (n: string) => want.set(n, (want.get(n) ?? 0) + 1);
  for (const layer of ['machines', 'ui', 'services']) for (const f of dirs(`src/${layer}`)) add(f);
  for (const f of dirs('src')) add(f);
  for (const f of dirs('src/contract')) add(f);
  for (const f of dirs('server')) add(f);
  for (const f of dirs('src/machines/app')) add(f);
  return want;
}

/** Folders the block names that do not exist (under src/ or server/). */
function stale(block: string, want: Map<string, number>): string[] {
  const named = [...block.matchAll(/(?<![\w/.-])([a-zA-Z][\w-]*)\/(?!\w)/g)].map((m) => m[1]);
  const elsewhere = new Set([
    'src',
    'server',
    'tests',
    'e2e',
    'bench',
    'scripts',
    'deploy',
    'docs',
    'statecharts',
    'model',
    'client',
  ]);
  return [...new Set(named)].filter((n) => !want.has(n) && !elsewhere.has(n));
}

function problems(block: string): string[] {
  const want = expected();
  const out: string[] = [];
  for (const [name, times] of want) {
    const n = mentions(block, name);
    if (n < times) out.push(`${name}/ named ${n} times, wanted ${times}`);
  }
  for (const n of stale(block, want)) out.push(`${n}/ is named but is no folder`);
  return out;
}

/** The client's features: the folders of src/machines but the composition root and what they share. */
const clientFeatures = () => dirs('src/machines').filter((f) => f !== 'app' && f !== 'shared');

/** The rows of the layout section's table: server folder → the client features it names ('—': the server's own). */
function nameTable(readme: string): Map<string, string[]> {
  const section = readme.split(/^## Layout$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = new Map<string, string[]>();
  for (const m of section.matchAll(/^\| `server\/([\w-]+)\/` \| (.*) \|$/gm))
    rows.set(m[1], m[2].trim().startsWith('—') ? ['—'] : [...m[2].split('(')[0].matchAll(/`(\w+)`/g)].map((n) => n[1]));
  return rows;
}

/** Server folders a newcomer cannot match to the client, and table rows that name what is not there. */
function unmatched(table: Map<string, string[]>, server: string[], client: string[]): string[] {
  const out: string[] = [];
  for (const f of server)
    if (!client.includes(f) && !table.has(f))
      out.push(`server/${f}/ serves no client feature of its name and the table does not say which it serves`);
  for (const [f, features] of table) {
    if (!server.includes(f)) out.push(`server/${f}/ is in the table but is no folder`);
    if (features.length === 0) out.push(`server/${f}/ names no client feature (write — for the server's own)`);
    for (const c of features)
      if (c !== '—' && !client.includes(c)) out.push(`server/${f}/ names ${c}, no client feature`);
  }
  return out;
}

describe("README's layout", () => {
  it('names every folder of src/machines, src/ui, src/services, src/ and server/, and none that is gone', () => {
    const block = layoutBlock(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
    expect(block.length).toBeGreaterThan(500);
    expect(problems(block)).toEqual([]);
  });

  it('fails when a feature folder is missing or a gone folder is named', () => {
    const block = layoutBlock(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
    const withoutCalls = block.replace(/(?<![\w/.-])calls\/(?!\w)/, 'xcalls ');
    expect(problems(withoutCalls).some((p) => p.startsWith('calls/'))).toBe(true);
    expect(problems(`${block}\n  features/  gone\n`)).toContain('features/ is named but is no folder');
  });

  it('says which client feature each server folder serves when their names differ', () => {
    const table = nameTable(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
    expect(table.get('secret')).toEqual(['secretChats']);
    expect(table.get('db')).toEqual(['—']);
    expect(unmatched(table, dirs('server'), clientFeatures())).toEqual([]);
  });

  it('probe: a server folder neither named like a client feature nor in the table fails, as does a stale row', () => {
    const table = nameTable(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
    const client = clientFeatures();
    const withoutSecret = new Map([...table].filter(([f]) => f !== 'secret'));
    expect(unmatched(withoutSecret, dirs('server'), client)).toEqual([
      'server/secret/ serves no client feature of its name and the table does not say which it serves',
    ]);
    expect(unmatched(table, [...dirs('server'), 'payments'], client)).toEqual([
      'server/payments/ serves no client feature of its name and the table does not say which it serves',
    ]);
    // a folder named like a client feature needs no row
    expect(unmatched(table, [...dirs('server'), 'theme'], client)).toEqual([]);
    const stale = nameTable(
      '## Layout\n| `server/push/` | `pushNotifications` |\n| `server/gone/` | — (old) |\n| `server/x/` | the chats |\n## Next',
    );
    expect(unmatched(stale, ['push', 'x'], client)).toEqual([
      'server/push/ names pushNotifications, no client feature',
      'server/gone/ is in the table but is no folder',
      "server/x/ names no client feature (write — for the server's own)",
    ]);
  });
});
