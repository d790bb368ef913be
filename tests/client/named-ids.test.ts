// Comments and docs name actors by their registry id; «systemId 'x'» claims more: that `x` is registered in the actor
// system (reachable with systemActor). A page's or dialog's actor lost its systemId when it became its view's, and
// headers that still said so sent readers looking for a global that is not there. This reads every source file and
// page for «systemId 'x'» / «systemId `x`» and checks each against the registry; a probe shows the check fails.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RegistryEntry, registry } from '../../src/machines/app/registry';

const root = path.resolve(__dirname, '../..');

function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(rel, ext));
    else if (ext.test(entry.name)) out.push(rel);
  }
  return out;
}

const withSystemId = new Set(
  Object.entries(registry)
    .filter(([, e]) => (e as RegistryEntry).systemId)
    .map(([id]) => id),
);

/** «systemId 'x'» claims in a text (a line break and a comment's `*` may come between the word and the id). */
function claimedIds(text: string): { id: string; line: number }[] {
  const found: { id: string; line: number }[] = [];
  for (const m of text.matchAll(/systemId[\s*/]*['`](\w+)['`]/g))
    found.push({ id: m[1], line: text.slice(0, m.index).split('\n').length });
  return found;
}

/** The claims that name an id the registry does not register in the actor system. */
function staleClaims(files: { file: string; text: string }[], known: ReadonlySet<string>): string[] {
  return files.flatMap(({ file, text }) =>
    claimedIds(text)
      .filter((c) => !known.has(c.id))
      .map((c) => `${file}:${c.line} names systemId '${c.id}'`),
  );
}

describe('systemIds named in comments and docs', () => {
  it('the registry still registers each one', () => {
    const files = [
      ...filesUnder('src', /\.(ts|tsx)$/),
      ...filesUnder('docs', /\.md$/).filter((f) => !f.startsWith('docs/statecharts/')),
      'README.md',
      'src/machines/README.md',
    ].map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
    expect(files.length).toBeGreaterThan(500);
    // The check reads real claims: the session-long actors' headers name theirs.
    expect(files.some((f) => claimedIds(f.text).some((c) => c.id === 'chats'))).toBe(true);
    expect(staleClaims(files, withSystemId)).toEqual([]);
  });

  it('probe: a header naming a page actor as a systemId fails, across a wrapped comment too', () => {
    expect(withSystemId.has('conversationInfo')).toBe(false);
    const probe = {
      file: 'src/machines/x/x.protocol.ts',
      text: "// Info (systemId 'conversationInfo', alive while shown)\n/** The dialog (systemId\n * `groupDialog`) */",
    };
    expect(staleClaims([probe], withSystemId)).toEqual([
      "src/machines/x/x.protocol.ts:1 names systemId 'conversationInfo'",
      "src/machines/x/x.protocol.ts:2 names systemId 'groupDialog'",
    ]);
    expect(staleClaims([{ file: 'ok.ts', text: "// (systemId 'chats')" }], withSystemId)).toEqual([]);
  });
});
