// @vitest-environment node
// README's layout section names every folder as it is: each feature folder of src/machines, src/ui and src/services,
// each top-level folder of src/ and of server/ and the composition root's, once each, and no folder that is gone.
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
});
