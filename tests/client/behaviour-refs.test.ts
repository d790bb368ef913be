// Code comments cite docs/behaviour.md as "§N Heading" (or "§10.5 …"); a renamed or missing section would leave
// them pointing nowhere, so every citation in the repository must name an existing section and heading.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const DOC = 'docs/behaviour.md';
const SCAN = ['src', 'server', 'tests', 'e2e', 'scripts', 'bench', 'README.md', DOC];
const EXTENSIONS = new Set(['.ts', '.tsx', '.mjs', '.md']);
/** This file cites missing sections on purpose. */
const SELF = path.relative(root, __filename);

interface Section {
  title: string;
  /** `###` headings inside a `## N.` section; for numbered ones ("10.5 …") the number is part of the title. */
  subsections: string[];
}

function sections(markdown: string): Map<string, Section> {
  const map = new Map<string, Section>();
  let current: Section | null = null;
  for (const line of markdown.split('\n')) {
    const top = /^## (\d+)\. (.+)$/.exec(line);
    if (top) {
      current = { title: top[2], subsections: [] };
      map.set(top[1], current);
      continue;
    }
    const sub = /^### (.+)$/.exec(line);
    if (sub && current) {
      current.subsections.push(sub[1]);
      const numbered = /^(\d+\.\d+) (.+)$/.exec(sub[1]);
      if (numbered) map.set(numbered[1], { title: numbered[2], subsections: [] });
    }
  }
  return map;
}

function files(rel: string): string[] {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return EXTENSIONS.has(path.extname(rel)) ? [rel] : [];
  return fs
    .readdirSync(abs)
    .filter((name) => name !== 'node_modules' && !name.startsWith('.'))
    .flatMap((name) => files(path.join(rel, name)));
}

/** Comment leaders and line breaks collapsed, so a citation wrapped over two comment lines reads as one. */
const flatten = (text: string) => text.replace(/\n[ \t]*(?:\/\/|\*|#+)?[ \t]*/g, ' ');

/** The problems with every "§…" citation in `text`; an empty list when all resolve. */
function brokenCitations(text: string, known: Map<string, Section>): string[] {
  const problems: string[] = [];
  for (const m of flatten(text).matchAll(/§(\d+(?:\.\d+)?)(?: ([^§]*))?/g)) {
    const [, number, rest = ''] = m;
    const section = known.get(number);
    if (!section) {
      problems.push(`§${number}: no such section`);
      continue;
    }
    // A capitalised word after the number is a heading name; anything else ("§5, §8", "(§10.3)") is just the number.
    if (!/^[A-Z]/.test(rest)) continue;
    const names = number.includes('.') ? [section.title] : [section.title, ...section.subsections];
    // The section's own title may be shortened ("§6 Roles" for "6. Roles and permissions").
    const words = /^[A-Za-z][A-Za-z0-9 '-]*/.exec(rest)?.[0].trim() ?? '';
    if (!names.some((name) => rest.startsWith(name)) && !section.title.startsWith(words)) {
      problems.push(`§${number} ${rest.slice(0, 40)}…: no heading of that name in §${number}`);
    }
  }
  return problems;
}

describe('docs/behaviour.md citations', () => {
  const known = sections(fs.readFileSync(path.join(root, DOC), 'utf8'));

  it('reads the numbered sections of the document', () => {
    expect([...known.keys()].filter((k) => !k.includes('.'))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ]);
    expect(known.get('4')?.subsections).toContain('Presence text');
  });

  it('flags a citation of a missing heading or section', () => {
    expect(brokenCitations('see §4 Presence text and §10.1', known)).toEqual([]);
    expect(brokenCitations('(§6 Roles). Signed-out', known)).toEqual([]);
    expect(brokenCitations('// see docs/behaviour.md §4 Presence\n// text', known)).toEqual([]);
    expect(brokenCitations('see §4 Nothing here', known)).toHaveLength(1);
    expect(brokenCitations('see §42', known)).toHaveLength(1);
  });

  it('every citation in the repository resolves', () => {
    const cited = SCAN.flatMap(files).filter((rel) => rel !== SELF);
    expect(cited).toContain(DOC);
    const problems = cited.flatMap((rel) =>
      brokenCitations(fs.readFileSync(path.join(root, rel), 'utf8'), known).map((p) => `${rel}: ${p}`),
    );
    expect(problems).toEqual([]);
  });
});
