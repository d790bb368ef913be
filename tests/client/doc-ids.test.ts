// @vitest-environment node
// A file's header (its leading comment block) that says an actor has a systemId sends readers to systemActor for it;
// a page's or dialog's actor has none (it is its view's). This reads the registry's lines where they are written,
// src/machines/*/actors.ts, and fails when a header of src/**/*.ts(x) claims a systemId no line registers:
// - «systemId 'x'» (or `x`), and every further quoted id up to the end of that clause (`)`, `;`, `:` or a full stop),
//   as in «(systemId 'search' for the list, 'conversationSearch' for the conversation)»;
// - «systemActor(…, 'x')» and «useSystemActor('x')» written in the header.
// Only headers are read: further down, such calls are code the compiler checks against the typed map.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** Every line of a feature's actors.ts, by id, with whether it registers a systemId. */
function actorLines(text: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const sf = ts.createSourceFile('actors.ts', text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.initializer) {
      let init: ts.Expression = node.initializer;
      while (ts.isSatisfiesExpression(init) || ts.isAsExpression(init)) init = init.expression;
      if (ts.isObjectLiteralExpression(init))
        for (const p of init.properties) {
          if (!ts.isPropertyAssignment(p) || !ts.isObjectLiteralExpression(p.initializer)) continue;
          const withId = p.initializer.properties.some(
            (q) =>
              ts.isPropertyAssignment(q) &&
              q.name.getText(sf) === 'systemId' &&
              q.initializer.kind === ts.SyntaxKind.TrueKeyword,
          );
          out.set(p.name.getText(sf), withId);
        }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The leading comment block of a file (line comments and block comments before the first code), as written. */
function header(text: string): string {
  const lines = text.split('\n');
  let end = 0;
  let inBlock = false;
  for (const line of lines) {
    const t = line.trim();
    if (inBlock) inBlock = !t.includes('*/');
    else if (t.startsWith('/*')) inBlock = !t.includes('*/');
    else if (!t.startsWith('//') && !(t === '' && end === 0)) break;
    end++;
  }
  return lines.slice(0, end).join('\n');
}

/** The systemIds a header claims, each with its line. */
function claims(head: string): { id: string; line: number }[] {
  const out: { id: string; line: number }[] = [];
  const lineOf = (i: number) => head.slice(0, i).split('\n').length;
  for (const m of head.matchAll(/\bsystemId\b(?![-\w])/g)) {
    const rest = head.slice(m.index + m[0].length);
    const clause = /^[^);:]*?(?:\.\s|[);:]|$)/.exec(rest)?.[0] ?? '';
    for (const q of clause.matchAll(/['`](\w+)['`]/g))
      out.push({ id: q[1], line: lineOf(m.index + m[0].length + q.index) });
  }
  for (const m of head.matchAll(/\b(?:use)?[sS]ystemActor\(([^()]*?)['`](\w+)['`]\s*\)/g))
    out.push({ id: m[2], line: lineOf(m.index) });
  return out;
}

function staleHeaders(files: { file: string; text: string }[], withSystemId: ReadonlySet<string>): string[] {
  return files.flatMap(({ file, text }) =>
    claims(header(text))
      .filter((c) => !withSystemId.has(c.id))
      .map((c) => `${file}:${c.line} names systemId '${c.id}', which no line of src/machines/*/actors.ts registers`),
  );
}

const registry = new Map(
  fs
    .readdirSync(path.join(root, 'src/machines'))
    .map((f) => path.join(root, 'src/machines', f, 'actors.ts'))
    .filter((f) => fs.existsSync(f))
    .flatMap((f) => [...actorLines(fs.readFileSync(f, 'utf8'))]),
);
const withSystemId = new Set([...registry].filter(([, has]) => has).map(([id]) => id));

describe('systemIds in file headers', () => {
  it('reads the registry from the features’ actors.ts', () => {
    expect(registry.size).toBeGreaterThan(50);
    expect(withSystemId).toContain('session');
    expect(withSystemId).toContain('recorder');
    expect(registry.get('conversationSearch')).toBe(false);
  });

  it('every systemId a header of src/ names is registered', () => {
    const files = filesUnder('src').map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
    expect(files.length).toBeGreaterThan(500);
    // the check reads real claims: the session-long actors' headers name theirs
    expect(files.filter((f) => claims(header(f.text)).length > 0).length).toBeGreaterThan(20);
    expect(staleHeaders(files, withSystemId)).toEqual([]);
  });

  it('probe: a stale id after systemId, later in its clause, or in a systemActor call fails; prose does not', () => {
    const probe = (text: string) => staleHeaders([{ file: 'src/x.ts', text }], withSystemId);
    expect(probe("// The dialog (systemId 'groupDialog'): its events\nexport {};")).toHaveLength(1);
    expect(
      probe("// Search (systemId 'search' for the list, 'conversationSearch' for the\n// conversation): x\nexport {};"),
    ).toEqual(["src/x.ts:1 names systemId 'conversationSearch', which no line of src/machines/*/actors.ts registers"]);
    expect(probe('/**\n * Reached with systemActor(system, `avatar`).\n */\nexport {};')).toHaveLength(1);
    expect(probe("// useSystemActor('callsPage') gives it\nexport {};")).toHaveLength(1);
    // registered ids, a clause that ends before other quoted words, the word alone, and code below the header pass
    expect(probe("// (systemId 'chats'; the view's 'chatsFooter' is not)\nexport {};")).toEqual([]);
    expect(probe("// The page's actor (systemId-less, 'callsPage' in the registry)\nexport {};")).toEqual([]);
    expect(probe("// Its systemId: none. Views use 'x'.\nexport {};")).toEqual([]);
    expect(probe("export {};\n// systemId 'groupDialog'\n")).toEqual([]);
  });
});
