// @vitest-environment node
// The import layers. Coarse rules are lint (biome.json, noRestrictedImports per folder): each case lints a probe
// file in a temporary copy of the project's configuration (nothing is written into src/ or server/). The feature
// boundaries are read from the import graph with the TypeScript parser: a feature imports another feature only
// through its public index.ts or a *.protocol.ts; views never import a machine file; src/ui/shared imports no feature.
// Biome cannot tell `import type` from a value import, so the browser's "no zod" rule is checked on that graph too.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { isSource, parse, sourceFiles } from './import-graph';

const root = path.resolve(__dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
fs.copyFileSync(path.join(root, 'biome.json'), path.join(scratch, 'biome.json'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Lints `body` as a file at `file` of the scratch copy. */
function lintText(file: string, body: string): { ok: boolean; output: string } {
  const full = path.join(scratch, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, body);
  try {
    return { ok: true, output: execFileSync(biome, ['lint', file], { cwd: scratch, encoding: 'utf8', stdio: 'pipe' }) };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  } finally {
    fs.rmSync(full, { force: true });
  }
}

/** Lints a file importing `imports`, placed at `dir` of a scratch copy of the project's lint configuration. */
function lint(dir: string, ext: string, imports: string[]): { ok: boolean; output: string } {
  const file = path.join(scratch, dir, `ZzLayerProbe${ext}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const body = imports.map((m, i) => `import * as m${i} from '${m}';`).join('\n');
  fs.writeFileSync(file, `${body}\nexport const all = [${imports.map((_, i) => `m${i}`).join(', ')}];\n`);
  try {
    const output = execFileSync(biome, ['lint', '--max-diagnostics=50', path.relative(scratch, file)], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { ok: true, output };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

// Each case starts biome: seconds apiece on a busy machine.
describe('import layers (npm run lint)', { timeout: 30_000 }, () => {
  it('a view importing a service fails, naming the rule and the reason', () => {
    const r = lint('src/ui/chats', '.tsx', ['../../services/app/api']);
    expect(r.ok).toBe(false);
    expect(r.output).toContain('noRestrictedImports');
    expect(r.output).toContain('Layers: views');
    expect(lint('src/ui/chats', '.tsx', ['../../services/composer/upload']).ok).toBe(false);
    expect(lint('src/ui/shared', '.tsx', ['../../services/app/sound']).ok).toBe(false);
  });

  it('a view importing a machine file fails; its protocol passes', () => {
    expect(lint('src/ui/chats', '.tsx', ['../../machines/chats/chatsLayout/chatsLayout.machine']).ok).toBe(false);
    expect(lint('src/ui/app', '.tsx', ['../../machines/realtime/connectivity/connectivity.machine']).ok).toBe(false);
    expect(lint('src/ui/shared', '.tsx', ['../../machines/conversation/lightbox/lightbox.machine']).ok).toBe(false);
    expect(lint('src/ui/chats', '.tsx', ['../../machines/chats/chatsLayout/chatsLayout.protocol']).ok).toBe(true);
  });

  it('a view importing the composition root fails; protocols, indexes and the contract pass', () => {
    expect(lint('src/ui/app', '.tsx', ['../../machines/app/runtime']).ok).toBe(false);
    expect(lint('src/ui/chats', '.tsx', ['../../machines/app/wiring/chats']).ok).toBe(false);
    expect(
      lint('src/ui/chats', '.tsx', [
        '../../machines/chats/chats/chats.protocol',
        '../../machines/app/app.protocol',
        '../contacts/index',
        '../../contract/api',
      ]).ok,
    ).toBe(true);
  });

  it('machines use neither services nor views; only the composition root meets both; services use no machine', () => {
    expect(lint('src/machines/session/session', '.ts', ['../../../services/app/api']).ok).toBe(false);
    expect(lint('src/machines/session/session', '.ts', ['../../../ui/app/RuntimeContext']).ok).toBe(false);
    expect(lint('src/machines/chats/chats', '.ts', ['../../app/wiring/chats']).ok).toBe(false);
    expect(lint('src/machines/chats/chats', '.ts', ['../../realtime/realtime/realtime.protocol']).ok).toBe(true);
    expect(lint('src/machines/app', '.ts', ['../../services/app/api', '../chats/chats/chats.machine']).ok).toBe(true);
    expect(lint('src/machines/app', '.ts', ['../../ui/app/AppRoutes']).ok).toBe(false);
    expect(lint('src/services/app', '.ts', ['../../machines/session/session/session.machine']).ok).toBe(false);
    expect(lint('src/services/composer', '.ts', ['../../machines/composer/index']).ok).toBe(false);
    expect(lint('src/services/composer', '.ts', ['../../ui/composer/Composer']).ok).toBe(false);
    expect(lint('src/services/composer', '.ts', ['../../machines/composer/outbox/outbox.protocol']).ok).toBe(true);
    // a feature's effects provide its machines, but meet no view and no composition root
    expect(lint('src/services/composer', '.effects.ts', ['../../machines/composer/outbox/outbox.machine']).ok).toBe(
      true,
    );
    expect(lint('src/services/composer', '.effects.ts', ['../../ui/composer/Composer']).ok).toBe(false);
    expect(lint('src/services/composer', '.effects.ts', ['../../machines/app/registry']).ok).toBe(false);
    expect(lint('src/services/app', '.ts', ['../../machines/app/registry']).ok).toBe(false);
    expect(lint('src/services/app', '.ts', ['../../machines/app/app.protocol']).ok).toBe(true);
    expect(lint('src/contract', '.ts', ['../services/app/api']).ok).toBe(false);
    expect(lint('src/contract', '.ts', ['../machines/chats/index']).ok).toBe(false);
  });

  it('no non-null assertion (`!`) in the client’s code; tests may use one', () => {
    const body = 'const a: string | null = null;\nexport const b = a!;\n';
    const machine = lintText('src/machines/chats/chats/ZzProbe.ts', body);
    expect(machine.ok).toBe(false);
    expect(machine.output).toContain('noNonNullAssertion');
    expect(lintText('src/ui/app/ZzProbe.tsx', body).ok).toBe(false);
    expect(lintText('src/machines/chats/chats/ZzProbe.test.ts', body).ok).toBe(true);
  });

  it('the server shares only the contract with the client, and the media server imports nothing of the messenger', () => {
    expect(lint('server/http', '.ts', ['../../src/contract/api']).ok).toBe(true);
    expect(lint('server/http', '.ts', ['../../src/machines/session/session/session.machine']).ok).toBe(false);
    expect(lint('server/http', '.ts', ['../../src/machines/chats/index']).ok).toBe(false);
    expect(lint('server/sfu', '.ts', ['./session/room']).ok).toBe(true);
    expect(lint('server/sfu/session', '.ts', ['../media/forwarding', '../signal']).ok).toBe(true);
    expect(lint('server/sfu/media', '.ts', ['../session/participant']).ok).toBe(false);
    expect(lint('server/sfu/session', '.ts', ['../transport/signal-connection']).ok).toBe(false);
    expect(lint('server/sfu/transport', '.ts', ['../../config']).ok).toBe(false);
    expect(lint('server/sfu', '.ts', ['../config']).ok).toBe(false);
    expect(lint('server/sfu', '.ts', ['../../src/contract/api']).ok).toBe(false);
  });
});

// --- zod stays out of the browser (bundle budget, bench/client/bundle.ts) ---

/** The browser's code: everything but tests under these folders, and the entry. */
const CLIENT_DIRS = ['src/machines', 'src/ui', 'src/services'];

/** The browser's code: the entry and everything but tests under CLIENT_DIRS. */
const clientFiles = () => [
  path.join(root, 'src/main.tsx'),
  ...CLIENT_DIRS.flatMap((d) => sourceFiles(path.join(root, d))),
];

interface ImportRef {
  specifier: string;
  line: number;
  /** Erased at build time: `import type`, `import { type A }` with every name a type, `export type … from`. */
  typeOnly: boolean;
}

function importsOf(file: string, text: string): ImportRef[] {
  const sf = parse(file, text);
  const refs: ImportRef[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteral(specifier)) return;
    refs.push({
      specifier: specifier.text,
      line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
      typeOnly,
    });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : null;
      const allTypes = !!c && !c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier, !!c?.isTypeOnly || allTypes);
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null;
      add(
        node,
        node.moduleSpecifier,
        node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)),
      );
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return refs;
}

function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
    if (isSource(candidate) && fs.existsSync(candidate)) return candidate;
  }
  return null; // a stylesheet, an asset: no code of ours behind it
}

/** Whether this import loads zod at run time: zod itself, or a module of ours that loads it (value imports only). */
function bringsZod(from: string, r: ImportRef): boolean {
  if (r.typeOnly) return false;
  if (r.specifier === 'zod' || r.specifier.startsWith('zod/')) return true;
  const target = resolve(from, r.specifier);
  return target !== null && reachesZod(target);
}

const reachesZodMemo = new Map<string, boolean>();
function reachesZod(file: string): boolean {
  if (reachesZodMemo.has(file)) return reachesZodMemo.get(file)!;
  reachesZodMemo.set(file, false); // cycles
  const found = importsOf(file, fs.readFileSync(file, 'utf8')).some((r) => bringsZod(file, r));
  reachesZodMemo.set(file, found);
  return found;
}

/** The value imports of one browser file that bring zod with them. */
function zodValueImports(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  return importsOf(file, text)
    .filter((r) => bringsZod(file, r))
    .map(
      (r) =>
        `${path.relative(root, file)}:${r.line} imports '${r.specifier}' as a value, and zod comes with it (import type only)`,
    );
}

describe('zod stays out of the browser: src/machines, src/ui and src/services import schema modules as types only', {
  timeout: 30_000,
}, () => {
  it('no browser file imports zod, or a module that loads it, as a value', () => {
    const files = clientFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((f) => zodValueImports(f))).toEqual([]);
  });

  it('a value import of zod or of a schema module fails; type imports and the zod-free contract modules pass', () => {
    const probe = (dir: string, body: string) => zodValueImports(path.join(root, dir, 'ZzProbe.ts'), body);
    expect(probe('src/ui/chats', "import { z } from 'zod';")).toHaveLength(1);
    expect(probe('src/services/app', "import { User } from '../../contract/entities';")).toHaveLength(1);
    expect(probe('src/machines/chats/chats', "export { api } from '../../../contract/api';")).toHaveLength(1);
    expect(probe('src/machines/app', "import { routes } from '../../contract';")[0]).toMatch(
      /^src\/machines\/app\/ZzProbe\.ts:1 imports '\.\.\/\.\.\/contract' as a value/,
    );
    expect(probe('src/machines/app', "const m = () => import('../../contract/events');")).toHaveLength(1);
    expect(
      probe(
        'src/ui/chats',
        [
          "import type { z } from 'zod';",
          "import type { User } from '../../contract/entities';",
          "import { type BodyOf, type ResponseOf } from '../../contract/api';",
          "export type { ServerEvent } from '../../contract/events';",
          "import { routes } from '../../contract/routes';",
          "import { SERVER_EVENT_NAMES } from '../../contract/event-names';",
          "import { isUser } from '../../contract/shape';",
          "import { LIMITS } from '../../contract/limits';",
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
