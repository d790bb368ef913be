// @vitest-environment node
// Feature boundaries, read from the import graph of src/ (type imports, re-exports and import() included):
// - a feature imports another feature only through its public faces: index.ts (machines and logic), ui/index.ts
//   (its views) and *.protocol.ts; a feature's wiring.ts may also use another's wiring.ts (both are composition);
// - src/shared imports no feature and nothing of src/core;
// - src/core reaches features the same way, except the composition root (src/core/app), which wires them all.
// The rules run over a map of file → imports, so a probe checks them on a made-up file without writing into src/.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const isSource = (f: string) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return isSource(full) ? [path.relative(root, full).split(path.sep).join('/')] : [];
  });
}

function specifiers(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

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
    /^src\/features\/[^/]+\/(ui\/)?index$/.test(f) || f.endsWith('.protocol') || /^src\/features\/[^/]+\/index$/.test(f);
  if (from.startsWith('src/shared/') && (b || to.startsWith('src/core/'))) return 'src/shared imports no feature and nothing of src/core';
  if (b && a !== b) {
    if (publicFace(to)) return null;
    if (a && from === `src/features/${a}/wiring.ts` && to === `src/features/${b}/wiring`) return null;
    if (!a && from.startsWith('src/core/app/')) return null; // the composition root
    return `another feature's internals (import its index.ts, ui/index.ts or a *.protocol.ts)`;
  }
  return null;
}

function violations(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([from, tos]) => tos.flatMap((to) => {
    const why = violation(from, to);
    return why ? [`${from} → ${to}: ${why}`] : [];
  }));
}

const graphOf = (files: string[], read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8')) =>
  new Map(files.map((f) => [f, specifiers(f, read(f)).map((s) => target(f, s)).filter((t): t is string => t !== null)]));

describe('feature boundaries', () => {
  const files = sourceFiles(path.join(root, 'src'));

  it('src/features holds the features, each with a public index', () => {
    const features = fs.readdirSync(path.join(root, 'src/features'));
    expect(features.length).toBeGreaterThanOrEqual(8);
    for (const f of features) {
      const faces = ['index.ts', 'ui/index.ts'].filter((x) => fs.existsSync(path.join(root, 'src/features', f, x)));
      expect(faces.length, `src/features/${f} has no index.ts or ui/index.ts`).toBeGreaterThan(0);
    }
  });

  it('no feature imports another feature’s internals; src/shared imports no feature', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(violations(graphOf(files))).toEqual([]);
  });

  it('a probe importing another feature’s view, machine or service file fails; its index and protocols pass', () => {
    const probe = 'src/features/chats/ui/ZzProbe.tsx';
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
    expect(found[0]).toContain('src/features/contacts/ui/ContactsDialog');
    expect(violations(graphOf(['src/shared/ui/ZzProbe.tsx'], () => "import { x } from '../../features/chats/index';"))).toHaveLength(1);
    expect(violations(graphOf(['src/core/app/ZzProbe.ts'], () => "import { x } from '../../features/chats/wiring';"))).toEqual([]);
    expect(violations(graphOf(['src/core/ui/ZzProbe.ts'], () => "import { x } from '../../features/chats/wiring';"))).toHaveLength(1);
  });
});
