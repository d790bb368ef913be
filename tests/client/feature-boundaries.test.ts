// @vitest-environment node
// Feature boundaries, read from the import graph of src/ (type imports, re-exports and import() included):
// - a feature imports another feature only through its public faces: index.ts (machines and logic), ui/index.ts
//   (its views) and *.protocol.ts; a feature's wiring.ts may also use another's wiring.ts (both are composition);
// - src/ui/shared imports no feature and nothing of src/machines/app;
// - src/machines/app reaches features the same way, except the composition root (src/machines/app), which wires them all;
// - views (src/machines/*/ui, src/ui/app, src/ui/shared) never import a *.machine.ts file, directly or through an
//   index that re-exports one under the names they take (they import protocols; actors come from the runtime).
// The rules run over a map of file → imports, so a probe checks them on a made-up file without writing into src/.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles, specifiers } from './import-graph';

const root = path.resolve(__dirname, '../..');

/** The repository-relative module a relative specifier names (no extension), or null for packages. */
function target(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.(tsx?|css)$/, '');
}

const featureOf = (f: string) => /^src\/features\/([^/]+)\//.exec(f)?.[1] ?? null;

/** Why `from` may not import `to`, or null when it may. */
function violation(from: string, to: string): string | null {
  if (!to.startsWith('src/')) return null;
  const a = featureOf(from);
  const b = featureOf(to);
  const publicFace = (f: string) =>
    /^src\/features\/[^/]+\/(ui\/)?index$/.test(f) ||
    /^src\/features\/[^/]+\/ui\/deferred$/.test(f) ||
    f.endsWith('.protocol') ||
    /^src\/features\/[^/]+\/index$/.test(f);
  if (from.startsWith('src/ui/shared/') && (b || to.startsWith('src/machines/app/')))
    return 'src/ui/shared imports no feature and nothing of src/machines/app';
  if (b && a !== b) {
    if (publicFace(to)) return null;
    if (a && from === `src/machines/${a}/wiring.ts` && to === `src/machines/${b}/wiring`) return null;
    if (!a && from.startsWith('src/machines/app/')) return null; // the composition root
    return `another feature's internals (import its index.ts, ui/index.ts or a *.protocol.ts)`;
  }
  return null;
}

function violations(graph: Map<string, string[]>, names: Map<string, string[]> = new Map()): string[] {
  const fromGraph = [...graph].flatMap(([from, tos]) =>
    tos.flatMap((to) => {
      const why = violation(from, to);
      return why ? [`${from} → ${to}: ${why}`] : [];
    }),
  );
  const machineImports = [...names]
    .filter(([from]) => isView(from))
    .flatMap(([from, tos]) =>
      tos
        .filter((to) => to.endsWith('.machine'))
        .map((to) => `${from} → ${to}: views import protocols, never a machine file`),
    );
  return [...fromGraph, ...machineImports];
}

const isView = (f: string) =>
  /^src\/features\/[^/]+\/ui\//.test(f) || f.startsWith('src/ui/app/') || f.startsWith('src/ui/shared/');

/** The module behind each name an index re-exports (`export { a } from './x'`, `export * from './x'` as '*'). */
const reexportsMemo = new Map<string, Map<string, string>>();
function reexports(index: string): Map<string, string> {
  const known = reexportsMemo.get(index);
  if (known) return known;
  const found = readReexports(index);
  reexportsMemo.set(index, found);
  return found;
}

function readReexports(index: string): Map<string, string> {
  const file = [`${index}.ts`, `${index}.tsx`].find((f) => fs.existsSync(path.join(root, f)));
  const out = new Map<string, string>();
  if (!file) return out;
  const sf = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  for (const st of sf.statements) {
    if (!ts.isExportDeclaration(st) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const to = target(file, st.moduleSpecifier.text);
    if (!to) continue;
    if (st.exportClause && ts.isNamedExports(st.exportClause))
      for (const e of st.exportClause.elements) out.set(e.name.text, to);
    else out.set('*', to);
  }
  return out;
}

/**
 * The modules a file's imports reach, with an import from an index followed to the modules behind the names it
 * takes (so a view may use an index's helpers, but not the machine it also re-exports).
 */
function namedTargets(file: string, text: string): string[] {
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: string[] = [];
  const follow = (to: string, names: string[] | null) => {
    if (!/\/index$/.test(to)) return out.push(to);
    const map = reexports(to);
    for (const n of names ?? [...map.keys()]) out.push(map.get(n) ?? map.get('*') ?? to);
  };
  for (const st of sf.statements) {
    if (
      !(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) ||
      !st.moduleSpecifier ||
      !ts.isStringLiteral(st.moduleSpecifier)
    )
      continue;
    const to = target(file, st.moduleSpecifier.text);
    if (!to) continue;
    const bindings = ts.isImportDeclaration(st) ? st.importClause?.namedBindings : st.exportClause;
    const names =
      bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))
        ? bindings.elements.map((e) => (e.propertyName ?? e.name).text)
        : null;
    follow(to, names);
  }
  return out;
}

const namesOf = (files: string[], read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8')) =>
  new Map(files.map((f) => [f, namedTargets(f, read(f))]));

const graphOf = (files: string[], read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8')) =>
  new Map(
    files.map((f) => [
      f,
      specifiers(f, read(f))
        .map((s) => target(f, s))
        .filter((t): t is string => t !== null),
    ]),
  );

describe('feature boundaries', () => {
  const files = sourceFiles(path.join(root, 'src')).map((f) => path.relative(root, f).split(path.sep).join('/'));

  it('src/machines holds the features, each with a public index', () => {
    const features = fs.readdirSync(path.join(root, 'src/machines'));
    expect(features.length).toBeGreaterThanOrEqual(8);
    for (const f of features) {
      const faces = ['index.ts', 'ui/index.ts'].filter((x) => fs.existsSync(path.join(root, 'src/machines', f, x)));
      expect(faces.length, `src/machines/${f} has no index.ts or ui/index.ts`).toBeGreaterThan(0);
    }
  });

  it('no feature imports another feature’s internals; src/ui/shared imports no feature', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(violations(graphOf(files), namesOf(files.filter(isView)))).toEqual([]);
  }, 30_000);

  it('a view importing a machine file, directly or through an index that re-exports it, fails; protocols and helpers pass', () => {
    const probe = (file: string, lines: string[]) => {
      const read = () => lines.join('\n');
      return violations(graphOf([file], read), namesOf([file], read)).filter((v) => v.includes('never a machine file'));
    };
    const bad = probe('src/ui/chats/ZzProbe.tsx', [
      "import { chatsLayoutMachine } from '../machines/chatsLayout/chatsLayout.machine';",
      "import { contactsMachine } from '../../contacts/index';",
      "import type { AvatarActorRef } from '../../profile/machines/avatar/avatar.machine';",
    ]);
    expect(bad).toHaveLength(3);
    expect(bad[0]).toContain('views import protocols, never a machine file');
    expect(
      probe('src/ui/app/ZzProbe.tsx', ["import { selectPing } from '../machines/connectivity/connectivity.machine';"]),
    ).toHaveLength(1);
    expect(
      probe('src/ui/shared/ZzProbe.tsx', ["export * from '../../core/machines/session/session.machine';"]).length,
    ).toBeGreaterThan(0);
    expect(
      probe('src/ui/chats/ZzProbe.tsx', [
        "import { FOOTER_TAGS } from '../machines/chatsFooter/chatsFooter.protocol';",
        "import { filterContacts } from '../../contacts/index';",
      ]),
    ).toEqual([]);
    // The composition root may: it wires the machines.
    expect(
      probe('src/machines/app/ZzProbe.ts', ["import { contactsMachine } from '../../features/contacts/index';"]),
    ).toEqual([]);
  });

  it('a probe importing another feature’s view, machine or service file fails; its index and protocols pass', () => {
    const probe = 'src/ui/chats/ZzProbe.tsx';
    const lines = [
      "import { ContactsDialog } from '../../contacts/ui/ContactsDialog';",
      "import { composerMachine } from '../../composer/machines/composer/composer.machine';",
      "const u = () => import('../../composer/services/upload');",
      "import { contactsMachine } from '../../contacts/index';",
      "import type { ContactsRef } from '../../contacts/machines/contacts/contacts.protocol';",
      "import { LazyContactsDialog } from '../../contacts/ui/index';",
      "import { Modal } from '../../../shared/ui/Modal';",
    ];
    const found = violations(graphOf([probe], () => lines.join('\n')));
    expect(found).toHaveLength(3);
    expect(found[0]).toContain('src/ui/contacts/ContactsDialog');
    expect(
      violations(graphOf(['src/ui/shared/ZzProbe.tsx'], () => "import { x } from '../../features/chats/index';")),
    ).toHaveLength(1);
    expect(
      violations(graphOf(['src/machines/app/ZzProbe.ts'], () => "import { x } from '../../features/chats/wiring';")),
    ).toEqual([]);
    expect(
      violations(graphOf(['src/ui/app/ZzProbe.ts'], () => "import { x } from '../../features/chats/wiring';")),
    ).toHaveLength(1);
  });
});
