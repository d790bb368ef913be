// Reading the client's import graph with the TypeScript parser, for the tests that check its shape
// (machine-graph, feature-boundaries, layers) and the server's (cycles, the media server's layers).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Code of the app: TypeScript, not a test, not a declaration file. */
export const isSource = (f: string) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts');

/** The source files under `dir` (absolute paths). */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return isSource(full) ? [full] : [];
  });
}

export const parse = (file: string, text: string) =>
  ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

/** Every module a file names: imports, `import type`, re-exports, `import('…')` types and dynamic imports. */
export function specifiers(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      out.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file, text));
  return out;
}

/** Each file's imports of other files of `dir` (relative specifiers resolved to .ts paths). */
export function importGraph(dir: string): Map<string, string[]> {
  const files = new Set(sourceFiles(dir));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = specifiers(file)
      .filter((s) => s.startsWith('.'))
      .map((s) => path.resolve(path.dirname(file), s))
      .flatMap((r) => [r, `${r}.ts`, `${r}.tsx`, path.join(r, 'index.ts')])
      .filter((r) => files.has(r));
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself): the cycles. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}
