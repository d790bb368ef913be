// @vitest-environment node
// The client's layout and its rules, read from the import graph of src/ (type imports, re-exports and import()
// included). The layers are src/machines, src/ui and src/services, each with one folder per feature (the same names
// in each), plus src/machines/app (the composition root), src/machines/shared, src/ui/app (the shell), src/ui/shared
// and src/services/app (what every feature shares), and src/contract.
// - views (src/ui) never import a service or the composition root, nor a *.machine file, directly or through an index
//   that re-exports one under the names they take (they import protocols; actors come from the runtime);
// - machines never import a view, a service or the composition root; services never import a view, the composition
//   root or a machine (protocols, for their types, they may), except that a feature's effects
//   (src/services/<feature>/*.effects.ts) provide its machines; the contract imports only itself;
// - a feature reaches another feature only through its public faces: src/machines/<f>/index.ts, src/ui/<f>/index.ts
//   and *.protocol.ts (services may build on other services); only src/machines/app meets everything;
// - src/ui/shared imports no feature but its protocols;
// - no import cycle anywhere in src/;
// - the composition root (src/machines/app) imports no feature's service (src/services/<feature>): a feature's
//   effects live with it (src/services/<feature>/effects.ts), and the root is given them joined;
// - views never walk an actor's children (`.children`): they get what they render from their own actor or from a
//   selector or hook the owning feature exports, so the actor tree is known in one place per feature (the root's
//   generic mechanism in src/ui/app/useOwnedActor.ts is the one exception).
// - each machine's placeholders for the effects it leaves to its feature's services (`notWired(…)` and the like) are
//   typed from its port, the `<Machine>Effects` interface in its protocol (`notWired('x.load') as XEffects['load']`),
//   and every `.provide({ actors })` in src/services is checked against a port (`} satisfies XEffects`), so a machine,
//   its port and its implementation cannot drift apart.
// The rules run over a map of file → imports, so a probe checks them on a made-up file without writing into src/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, sourceFiles, specifiers } from './import-graph';

const root = path.resolve(__dirname, '../..');

/** The repository-relative module a relative specifier names (no extension), or null for packages. */
function target(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.(tsx?|css)$/, '');
}

/** Folders of a layer that belong to no feature: the composition root and what every feature shares. */
const NOT_FEATURES = new Set(['app', 'shared']);

/** The layer and feature of a file under src/machines, src/ui or src/services. */
function placeOf(f: string): { layer: string; feature: string | null } | null {
  const m = /^src\/(machines|ui|services)\/([^/]+)\//.exec(f);
  if (!m) return null;
  return { layer: m[1], feature: NOT_FEATURES.has(m[2]) ? null : m[2] };
}

const isRoot = (f: string) => f.startsWith('src/machines/app/') || f === 'src/main';

/** A feature's public faces: its machines' index, its views' index (and deferred views), any protocol. */
const publicFace = (f: string) =>
  /^src\/(machines|ui)\/[^/]+\/index$/.test(f) || /^src\/ui\/[^/]+\/deferred$/.test(f) || f.endsWith('.protocol');

/** A feature's effects: the services that provide its machines' actors, so they may import its machines. */
const isEffects = (f: string) => /^src\/services\/[^/]+\/[^/]+\.effects(\.ts)?$/.test(f);

/** Why `from` may not import `to`, or null when it may. */
function violation(from: string, to: string): string | null {
  if (!to.startsWith('src/')) return null;
  if (from.startsWith('src/contract/') && !to.startsWith('src/contract/')) return 'the contract imports only itself';
  const a = placeOf(from);
  const b = placeOf(to);
  if (a?.layer === 'ui') {
    if (b?.layer === 'services') return 'views reach effects through actors (or ViewPorts), never a service';
    if (isRoot(to) && to !== 'src/machines/app/app.protocol') return 'views never import the composition root';
  }
  if (from.startsWith('src/machines/app/') && b?.layer === 'services' && b.feature)
    return "the composition root imports no feature's service (its effects live with the feature)";
  if (a?.layer === 'machines' && !isRoot(from)) {
    if (b?.layer === 'ui' || b?.layer === 'services')
      return 'machines never import a view or a service (effects are provided in src/machines/app)';
    if (isRoot(to)) return 'machines never import the composition root';
  }
  if (a?.layer === 'services') {
    if (b?.layer === 'ui') return 'services never import a view';
    if (isRoot(to) && !to.endsWith('.protocol'))
      return 'services never import the composition root (it is given their effects)';
    if (b?.layer === 'machines' && !to.endsWith('.protocol') && !isEffects(from))
      return "services import protocols (types), never a machine (only a feature's *.effects.ts provides them)";
  }
  if (from.startsWith('src/ui/shared/') && b?.feature && !to.endsWith('.protocol'))
    return 'src/ui/shared imports no feature (only protocols)';
  if (a?.feature && b?.feature && a.feature !== b.feature && !isRoot(from) && !publicFace(to)) {
    if (a.layer === 'services' && b.layer === 'services') return null; // effects may build on other effects
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

const isView = (f: string) => f.startsWith('src/ui/');

/** Views (src/ui, tests aside) that walk an actor's children, each with its line. */
function childrenWalks(files: Map<string, string>): string[] {
  return [...files]
    .filter(([f]) => isView(f) && !/\.test\.tsx?$/.test(f))
    .flatMap(([f, text]) =>
      text
        .split('\n')
        .flatMap((line, i) =>
          /\.children\b/.test(line)
            ? [`${f}:${i + 1}: a view reaches an actor's children (use its own actor or its feature's selector)`]
            : [],
        ),
    );
}

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

/** The placeholders a machine declares for the actors its feature's services provide (src/machines/shared). */
const PLACEHOLDER = /^(notWired|notWiredCallback|copyTextNotWired|loadOwnedNotWired)$/;

const parse = (f: string, text: string) =>
  ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true, f.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

/** Every node of a file that `pick` accepts. */
function nodesOf<T extends ts.Node>(sf: ts.SourceFile, pick: (n: ts.Node) => n is T): T[] {
  const out: T[] = [];
  const visit = (n: ts.Node) => {
    if (pick(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const lineOf = (sf: ts.SourceFile, n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;

/** Placeholder calls in machine files (tests and the placeholders' own module aside) not typed from a port. */
function untypedPlaceholders(files: Map<string, string>): string[] {
  return [...files]
    .filter(([f]) => f.startsWith('src/machines/') && !f.startsWith('src/machines/shared/') && !/\.test\.tsx?$/.test(f))
    .flatMap(([f, text]) => {
      const sf = parse(f, text);
      return nodesOf(
        sf,
        (n): n is ts.CallExpression =>
          ts.isCallExpression(n) && ts.isIdentifier(n.expression) && PLACEHOLDER.test(n.expression.text),
      )
        .filter((call) => {
          const cast = call.parent;
          return !(
            ts.isAsExpression(cast) &&
            ts.isIndexedAccessTypeNode(cast.type) &&
            ts.isTypeReferenceNode(cast.type.objectType) &&
            /Effects$/.test(cast.type.objectType.typeName.getText(sf))
          );
        })
        .map(
          (call) => `${f}:${lineOf(sf, call)}: a placeholder not typed from its machine's port (as XEffects['name'])`,
        );
    });
}

/** `.provide({ actors })` calls in src/services (tests aside) whose actors are not checked against a port. */
function unportedProvides(files: Map<string, string>): string[] {
  return [...files]
    .filter(([f]) => f.startsWith('src/services/') && !/\.test\.tsx?$/.test(f))
    .flatMap(([f, text]) => {
      const sf = parse(f, text);
      return nodesOf(
        sf,
        (n): n is ts.PropertyAssignment =>
          ts.isPropertyAssignment(n) &&
          n.name.getText(sf) === 'actors' &&
          ts.isObjectLiteralExpression(n.parent) &&
          ts.isCallExpression(n.parent.parent) &&
          ts.isPropertyAccessExpression(n.parent.parent.expression) &&
          n.parent.parent.expression.name.text === 'provide',
      )
        .filter(
          (p) => !(ts.isSatisfiesExpression(p.initializer) && /\b\w+Effects\b/.test(p.initializer.type.getText(sf))),
        )
        .map(
          (p) => `${f}:${lineOf(sf, p)}: provided actors not checked against the machine's port (satisfies XEffects)`,
        );
    });
}

// Each test reads and parses every file of src/ (about 1 s on a quiet machine; 6 s seen with two busy cores).
describe('feature boundaries', { timeout: 30_000 }, () => {
  const files = sourceFiles(path.join(root, 'src')).map((f) => path.relative(root, f).split(path.sep).join('/'));

  it('src/machines, src/ui and src/services hold one folder per feature, with the same names', () => {
    const features = (layer: string) =>
      fs
        .readdirSync(path.join(root, 'src', layer), { withFileTypes: true })
        .filter((e) => e.isDirectory() && !NOT_FEATURES.has(e.name))
        .map((e) => e.name);
    const machines = features('machines');
    expect(machines.length).toBeGreaterThanOrEqual(15);
    // a feature's effects serve its actors: every services folder names a feature that has machines
    for (const f of features('services')) expect(machines, `src/services/${f}`).toContain(f);
    // every feature publishes an index: its machines' (logic) or its views' (what routes and other features render)
    for (const f of new Set([...machines, ...features('ui')])) {
      const faces = ['machines', 'ui'].filter((l) => fs.existsSync(path.join(root, 'src', l, f, 'index.ts')));
      expect(faces.length, `src/machines/${f} or src/ui/${f} has no index.ts`).toBeGreaterThan(0);
    }
    expect(fs.existsSync(path.join(root, 'src/features'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'src/core'))).toBe(false);
  });

  it('no layer or feature rule is broken anywhere in src/', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(violations(graphOf(files), namesOf(files.filter(isView)))).toEqual([]);
  }, 30_000);

  it('no view walks an actor’s children', () => {
    const views = files.filter(isView);
    expect(views.length).toBeGreaterThan(100);
    expect(childrenWalks(new Map(views.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')])))).toEqual([]);
  });

  it('a view reaching an actor’s children fails, the root’s own hook included; its feature’s selector passes', () => {
    const walk = new Map([
      [
        'src/ui/chats/ZzProbe.ts',
        [
          'const loader = useSelector(chats, (s) => s?.children.loader);',
          'const pins = useSelector(conversation, conversationPartOf("pins"));',
          'const card = (s?.children as Record<string, unknown>)[id];',
        ].join('\n'),
      ],
    ]);
    const found = childrenWalks(walk);
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('src/ui/chats/ZzProbe.ts:1:');
    expect(found[1]).toContain('src/ui/chats/ZzProbe.ts:3:');
    expect(childrenWalks(new Map([['src/ui/chats/ZzProbe.tsx', '{props.children}']]))).toHaveLength(1);
    expect(childrenWalks(new Map([['src/ui/app/useOwnedActor.ts', 's.children[id]']]))).toHaveLength(1);
    expect(childrenWalks(new Map([['src/ui/app/useOwnedActor.ts', 'useSelector(app, ownedActorOf(id))']]))).toEqual([]);
    expect(childrenWalks(new Map([['src/ui/chats/ZzProbe.test.ts', 's.children.loader']]))).toEqual([]);
    expect(childrenWalks(new Map([['src/machines/chats/chats/ZzProbe.ts', 's?.children.loader']]))).toEqual([]);
  });

  it('every machine placeholder is typed from its port, every provided set of actors is checked against one', () => {
    const read = (f: string) => [f, fs.readFileSync(path.join(root, f), 'utf8')] as const;
    const machines = new Map(files.filter((f) => f.startsWith('src/machines/')).map(read));
    const services = new Map(files.filter((f) => f.startsWith('src/services/')).map(read));
    expect([...machines.values()].filter((text) => /NotWired|notWired/.test(text)).length).toBeGreaterThan(70);
    expect(untypedPlaceholders(machines)).toEqual([]);
    expect([...services.values()].join('\n').split('.provide({').length - 1).toBeGreaterThan(70);
    expect(unportedProvides(services)).toEqual([]);
  });

  it('a placeholder without its port’s type fails, and so does a provide its port does not check', () => {
    const machine = (text: string) => untypedPlaceholders(new Map([['src/machines/chats/chats/ZzProbe.ts', text]]));
    const bad = machine(
      [
        'setup({ actors: {',
        "  load: notWired<Page, { id: string }>('zz.load'),",
        "  watch: notWiredCallback('zz.watch') as unknown as AnyActorLogic,",
        "  copyText: copyTextNotWired('zz'),",
        "  loadOwned: loadOwnedNotWired<'x'>('zz') as ZzPort['loadOwned'],",
        '} });',
      ].join('\n'),
    );
    expect(bad).toHaveLength(4);
    expect(bad[0]).toContain('src/machines/chats/chats/ZzProbe.ts:2:');
    expect(bad[3]).toContain(':5:');
    expect(
      machine(
        [
          "load: notWired('zz.load') as ZzEffects['load'],",
          "copyText: copyTextNotWired('zz') as ZzEffects['copyText'],",
          "x: notWired('app.x') as AppEffects['x'] as unknown as AnyStateMachine,",
        ].join('\n'),
      ),
    ).toEqual([]);
    // the placeholders' own module and tests may call them as they like
    expect(untypedPlaceholders(new Map([['src/machines/shared/clipboard.ts', "notWired('x')"]]))).toEqual([]);
    expect(untypedPlaceholders(new Map([['src/machines/chats/chats/zz.test.ts', "notWired('x')"]]))).toEqual([]);

    const service = (text: string) => unportedProvides(new Map([['src/services/chats/zz.effects.ts', text]]));
    const unchecked = service(
      [
        'export const a = zzMachine.provide({ actors: { load } });',
        'export const b = zzMachine.provide({ actors: { load } satisfies Record<string, AnyActorLogic> });',
        'export const c = wireZz(s).provide({',
        '  actors: { load },',
        '});',
      ].join('\n'),
    );
    expect(unchecked).toHaveLength(3);
    expect(unchecked[2]).toContain('src/services/chats/zz.effects.ts:4:');
    expect(
      service(
        [
          'zzMachine.provide({ actors: { load } satisfies ZzEffects });',
          "zzMachine.provide({ actors: { copyText } satisfies Omit<ZzEffects, 'loadOwned'> });",
          "wireZz(s).provide({ actors: { save } satisfies Pick<ZzEffects, 'save'> });",
          'zzMachine.provide({ guards: { ok: () => true } });',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(unportedProvides(new Map([['src/services/chats/zz.test.ts', 'm.provide({ actors: { load } });']]))).toEqual(
      [],
    );
  });

  it('no import cycle in src/ (type imports included)', () => {
    const graph = importGraph(path.join(root, 'src'));
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph).map((c) => c.map((f) => path.relative(root, f)).join(' ⇄ '))).toEqual([]);
  });

  it('the cycle finder sees a cycle closed by a type import between two views', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'view-cycle-'));
    try {
      fs.mkdirSync(path.join(dir, 'a'));
      fs.mkdirSync(path.join(dir, 'b'));
      fs.writeFileSync(path.join(dir, 'a/A.tsx'), "import { B } from '../b/index';\nexport const A = () => B;\n");
      fs.writeFileSync(path.join(dir, 'b/index.ts'), "export { B } from './B';\n");
      fs.writeFileSync(
        path.join(dir, 'b/B.tsx'),
        "import type { A } from '../a/A';\nexport const B: typeof A | null = null;\n",
      );
      expect(cycles(importGraph(dir))).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a view importing a machine file, directly or through an index that re-exports it, fails; protocols and helpers pass', () => {
    const probe = (file: string, lines: string[]) => {
      const read = () => lines.join('\n');
      return violations(graphOf([file], read), namesOf([file], read)).filter((v) => v.includes('never a machine file'));
    };
    const bad = probe('src/ui/chats/ZzProbe.tsx', [
      "import { chatsLayoutMachine } from '../../machines/chats/chatsLayout/chatsLayout.machine';",
      "import { contactsMachine } from '../../machines/contacts/index';",
      "import type { AvatarActorRef } from '../../machines/profile/avatar/avatar.machine';",
    ]);
    expect(bad).toHaveLength(3);
    expect(bad[0]).toContain('views import protocols, never a machine file');
    expect(
      probe('src/ui/app/ZzProbe.tsx', [
        "import { x } from '../../machines/realtime/connectivity/connectivity.machine';",
      ]),
    ).toHaveLength(1);
    expect(
      probe('src/ui/shared/ZzProbe.tsx', ["export * from '../../machines/session/session/session.machine';"]).length,
    ).toBeGreaterThan(0);
    expect(
      probe('src/ui/chats/ZzProbe.tsx', [
        "import { FOOTER_TAGS } from '../../machines/chats/chatsFooter/chatsFooter.protocol';",
        "import { filterContacts } from '../../machines/contacts/index';",
      ]),
    ).toEqual([]);
  });

  it('each layer rule fails on a probe that breaks it, and passes what it allows', () => {
    const check = (file: string, line: string) => violations(graphOf([file], () => line));
    // views
    expect(check('src/ui/chats/ZzProbe.tsx', "import { x } from '../../services/app/api';")[0]).toContain(
      'never a service',
    );
    expect(check('src/ui/chats/ZzProbe.tsx', "import { x } from '../../machines/app/runtime';")[0]).toContain(
      'composition root',
    );
    expect(check('src/ui/app/ZzProbe.tsx', "import type { AppRef } from '../../machines/app/app.protocol';")).toEqual(
      [],
    );
    // machines
    expect(check('src/machines/chats/chats/ZzProbe.ts', "import { x } from '../../../services/app/api';")[0]).toContain(
      'never import a view or a service',
    );
    expect(
      check('src/machines/chats/chats/ZzProbe.ts', "import { x } from '../../../ui/chats/ChatList';"),
    ).toHaveLength(1);
    expect(check('src/machines/chats/chats/ZzProbe.ts', "import { x } from '../../app/registry';")).toHaveLength(1);
    // services
    expect(
      check(
        'src/services/composer/ZzProbe.ts',
        "import { x } from '../../machines/composer/outbox/outbox.machine';",
      )[0],
    ).toContain('never a machine');
    expect(check('src/services/composer/ZzProbe.ts', "import { x } from '../../ui/composer/Composer';")).toHaveLength(
      1,
    );
    expect(
      check(
        'src/services/composer/ZzProbe.ts',
        "import type { X } from '../../machines/composer/outbox/outbox.protocol';",
      ),
    ).toEqual([]);
    // the contract
    expect(check('src/contract/ZzProbe.ts', "import { x } from '../services/app/api';")[0]).toContain('only itself');
    // a feature's effects provide its own machines (and another feature's only through its public faces); no
    // service imports the composition root
    expect(
      check(
        'src/services/polls/polls.effects.ts',
        "import { x } from '../../machines/polls/pollVotes/pollVotes.machine';",
      ),
    ).toEqual([]);
    expect(
      check('src/services/polls/polls.effects.ts', "import { x } from '../../machines/chats/chats/chats.machine';"),
    ).toHaveLength(1);
    expect(
      check('src/services/conversation/conversation.effects.ts', "import { x } from '../../machines/realtime/index';"),
    ).toEqual([]);
    expect(
      check('src/services/polls/votes.ts', "import { x } from '../../machines/polls/pollVotes/pollVotes.machine';")[0],
    ).toContain('never a machine');
    expect(check('src/services/app/ZzProbe.ts', "import { x } from '../../machines/app/registry';")[0]).toContain(
      'never import the composition root',
    );
    expect(check('src/services/app/ZzProbe.ts', "import type { X } from '../../machines/app/app.protocol';")).toEqual(
      [],
    );
    // the composition root meets everything but a feature's services: it is given their effects
    expect(check('src/machines/app/ZzProbe.ts', "import { x } from '../../services/app/api';")).toEqual([]);
    expect(check('src/machines/app/ZzProbe.ts', "import { x } from '../../services/polls/votes';")[0]).toContain(
      "imports no feature's service",
    );
    expect(
      check('src/machines/app/ZzProbe.ts', "import { pollsEffects } from '../../services/polls/effects';")[0],
    ).toContain("imports no feature's service");
    expect(
      check('src/machines/app/ZzProbe.ts', "const m = () => import('../../services/secretChats/secret-files');"),
    ).toHaveLength(1);
    expect(
      check('src/machines/app/runtime.ts', "import { x } from '../../services/composer/voice-recorder';"),
    ).toHaveLength(1);
    expect(check('src/machines/app/ZzProbe.ts', "import { x } from '../chats/chats/chats.machine';")).toEqual([]);
  });

  it('a probe importing another feature’s view, machine or service file fails; its index and protocols pass', () => {
    const probe = 'src/ui/chats/ZzProbe.tsx';
    const lines = [
      "import { ContactsDialog } from '../contacts/ContactsDialog';",
      "import { x } from '../../machines/composer/outbox/outbox-item';",
      "import { contactsMachine } from '../../machines/contacts/index';",
      "import type { ContactsRef } from '../../machines/contacts/contacts/contacts.protocol';",
      "import { LazyContactsDialog } from '../contacts/index';",
      "import { Modal } from '../shared/Modal';",
    ];
    const found = violations(graphOf([probe], () => lines.join('\n')));
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('src/ui/contacts/ContactsDialog');
    expect(
      violations(graphOf(['src/ui/shared/ZzProbe.tsx'], () => "import { x } from '../chats/index';")),
    ).toHaveLength(1);
    expect(
      violations(
        graphOf(
          ['src/machines/chats/chats/ZzProbe.ts'],
          () => "import { x } from '../../contacts/contacts/contact-list';",
        ),
      ),
    ).toHaveLength(1);
  });
});
