// The server's shape, read from its source with the TypeScript parser (type imports included): no import cycle
// anywhere under server/, and no route handed a bag of everything — each Fastify plugin takes from `app` only
// decorators it names in its options (Fastify checks at start-up that the named ones exist).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, sourceFiles } from '../client/import-graph';

const root = path.resolve(__dirname, '../../server');
const rel = (f: string) => path.relative(root, f);

/** Names a plugin destructures from its Fastify instance (`const { a, b } = app;`), and those it declares. */
function pluginDecorators(text: string): { used: string[]; declared: string[] | null } {
  const used = [...text.matchAll(/const \{([^}]+)\} = app;/g)].flatMap((m) =>
    (m[1] as string)
      .split(',')
      .map((n) => n.trim().split(':')[0]?.trim() ?? '')
      .filter(Boolean),
  );
  const declared = /decorators:\s*\{\s*fastify:\s*\[([^\]]*)\],?\s*\}/.exec(text);
  return {
    used,
    declared: declared ? [...(declared[1] as string).matchAll(/'(\w+)'/g)].map((m) => m[1] as string) : null,
  };
}

describe('the server', () => {
  it('has no import cycle', () => {
    const graph = importGraph(root);
    expect(graph.size).toBeGreaterThan(80);
    expect(cycles(graph).map((c) => c.map(rel))).toEqual([]);
  });

  it('hands no route the whole of its parts: plugins take only the decorators they declare', () => {
    const offenders: string[] = [];
    let plugins = 0;
    for (const file of sourceFiles(root)) {
      const text = fs.readFileSync(file, 'utf8');
      if (rel(file) !== 'app.ts' && /\bServerParts\b|\bapp\.ctx\b/.test(text)) offenders.push(`${rel(file)}: the bag`);
      const { used, declared } = pluginDecorators(text);
      // app.ts is the composition root: it builds the decorators and reads them back for main.ts and tests.
      if (used.length === 0 || rel(file) === 'app.ts') continue;
      plugins++;
      const missing = used.filter((n) => !declared?.includes(n));
      if (missing.length) offenders.push(`${rel(file)}: uses ${missing.join(', ')} without declaring it`);
    }
    expect(plugins).toBeGreaterThanOrEqual(10);
    expect(offenders).toEqual([]);
  });

  it('the check reads a plugin as it is written', () => {
    const text = "const { db, lists } = app;\n{ decorators: { fastify: ['db', 'authenticate'] } }";
    expect(pluginDecorators(text)).toEqual({ used: ['db', 'lists'], declared: ['db', 'authenticate'] });
    // As the formatter writes a long list: on lines of its own, with a trailing comma.
    const long = "const { db } = app;\n{ decorators: {\n  fastify: ['db', 'config'],\n} }";
    expect(pluginDecorators(long)).toEqual({ used: ['db'], declared: ['db', 'config'] });
  });
});
