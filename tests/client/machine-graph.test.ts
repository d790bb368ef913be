// @vitest-environment node
// The import graph of the machines (src/machines/<feature>/ and src/machines/shared), read with the TypeScript parser (type imports and re-exports included):
// no cycles; a protocol module imports only the contract and other protocols (with the pure data modules of its
// own folder); a machine file imports another machine file only to run it as a child (parent → child).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles, specifiers } from './import-graph';

const root = path.resolve(__dirname, '../..');
const machinesDir = path.join(root, 'src/machines');
const sharedMachines = path.join(machinesDir, 'shared');
/** Each feature's folder of machines (the composition root, src/machines/app, wires them and is not one). */
const machineDirs = fs
  .readdirSync(machinesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'app' && e.name !== 'shared')
  .map((e) => path.join(machinesDir, e.name));

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (fs.existsSync(candidate)) return candidate;
  return null;
}

/** The modules a feature's index.ts re-exports each name from (`export { a, b } from './x'`). */
function indexExports(index: string): Map<string, string> {
  const src = ts.createSourceFile(index, fs.readFileSync(index, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = new Map<string, string>();
  for (const st of src.statements) {
    if (!ts.isExportDeclaration(st) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const target = resolve(index, st.moduleSpecifier.text);
    if (target && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const e of st.exportClause.elements) names.set(e.name.text, target);
    }
  }
  return names;
}

/** What a file imports, with an import of a feature's index.ts followed to the modules behind the names it takes. */
function dependencies(file: string): string[] {
  const src = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const spec of specifiers(file)) {
    const target = resolve(file, spec);
    if (!target) continue;
    if (!/src\/machines\/[^/]+\/index\.ts$/.test(target)) {
      out.push(target);
      continue;
    }
    const exported = indexExports(target);
    for (const st of src.statements) {
      if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || st.moduleSpecifier.text !== spec)
        continue;
      const bindings = st.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const e of bindings.elements) out.push(exported.get((e.propertyName ?? e.name).text) ?? target);
      } else out.push(target);
    }
  }
  return out;
}

type Graph = Map<string, string[]>;

function buildGraph(files: string[]): Graph {
  return new Map(files.map((f) => [f, dependencies(f)]));
}

/** The cycles among the graph's own nodes, each as the path that closes it. */
function findCycles(graph: Graph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const walk = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) walk(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) walk(node);
  return cycles;
}

const rel = (f: string) => path.relative(root, f);
const graph = buildGraph([...machineDirs, sharedMachines].flatMap(sourceFiles));

describe('import graph of the machines', () => {
  it('the cycle finder finds a cycle, also one through a type import', () => {
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cycle-probe-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "export type B = import('./a').A;\n");
      expect(findCycles(buildGraph(sourceFiles(dir))).map((c) => c.map((f) => path.basename(f)))).toEqual([
        ['a.ts', 'b.ts', 'a.ts'],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has no cycles', () => {
    expect(findCycles(graph).map((c) => c.map(rel).join(' → '))).toEqual([]);
  });

  it('every machine folder publishes its protocol, and a protocol imports only the contract and other protocols', () => {
    const folders = machineDirs.flatMap((dir) =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => path.join(dir, e.name)),
    );
    expect(folders.length).toBeGreaterThan(20);
    for (const dir of folders)
      expect(fs.existsSync(path.join(dir, `${path.basename(dir)}.protocol.ts`)), rel(dir)).toBe(true);
    const allowed = (from: string, to: string) =>
      to.startsWith(path.join(root, 'src/contract')) ||
      to.endsWith('.protocol.ts') ||
      to === path.join(sharedMachines, 'machine-ref.ts') ||
      // the typed system map: it imports nothing (each protocol adds its own entry to it)
      to === path.join(sharedMachines, 'system.ts') ||
      // pure data modules of its own folder (no machine, no actor)
      (path.dirname(to) === path.dirname(from) &&
        !to.endsWith('.machine.ts') &&
        !specifiers(to).some((s) => s.includes('machine')));
    const offending = [...graph]
      .filter(([file]) => file.endsWith('.protocol.ts'))
      .flatMap(([file, deps]) => deps.filter((d) => !allowed(file, d)).map((d) => `${rel(file)} → ${rel(d)}`));
    expect(offending).toEqual([]);
  });

  it('a machine file imports another machine file only to run it as its child', () => {
    const offending = [...graph]
      .filter(([file]) => file.endsWith('.machine.ts'))
      .flatMap(([file, deps]) => {
        const text = fs.readFileSync(file, 'utf8');
        return deps
          .filter((d) => d.endsWith('.machine.ts') && d !== file)
          .filter((d) => {
            const machineName = `${path.basename(d, '.machine.ts')}Machine`;
            // used as a child actor in setup({ actors }): `name: xMachine`
            return !new RegExp(`\\w+: ${machineName}\\b`).test(text);
          })
          .map((d) => `${rel(file)} → ${rel(d)}`);
      });
    expect(offending).toEqual([]);
  });
});
