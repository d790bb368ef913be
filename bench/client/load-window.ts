// The JavaScript of a signed-in load of the chat list up to its first paint, from the build's manifest: the entry's
// static imports, plus the chunks the start-up always asks for before the list paints (none since the start-up's
// other code waits for that paint: src/services/app/first-paint.ts), each with the static imports it brings. The
// budget counts gzip bytes; what the page fetches after the paint (the prefetch of the realtime connection, the API
// client's transport, …) is listed apart and does not count. Part (d) checks in the browser that the page fetched
// no other script before the list painted, so the declared lists below cannot drift from what the app does.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** The load window's budget: every script before the chat list's first paint, gzip level 6. */
export const LOAD_WINDOW_BUDGET_GZIP_BYTES = 150 * 1024;

/**
 * Dynamic imports (manifest keys) a signed-in load of the list always makes before the list's first paint. The
 * chats page's own chunk would be one if the router split it off (the page at '/' loads it at once).
 */
export const STARTED_BEFORE_PAINT: RegExp[] = [/^src\/ui\/(chats|pages)\/ChatsPage\.tsx$/];

/**
 * Dynamic imports the same load makes once the list has painted (first-paint.ts): the prefetch, not budgeted.
 */
export const STARTED_AFTER_PAINT: RegExp[] = [
  /^src\/services\/realtime\/socket\.ts$/,
  /^_socket-/,
  /^src\/services\/app\/api-transport\.ts$/,
  /^src\/services\/session\/offline-cache\.ts$/,
  /^src\/services\/notifications\/notifications\.ts$/,
  /^src\/services\/app\/service-worker\.ts$/,
  /^src\/ui\/(secretChats\/SecretDevice|threads\/ThreadsEntry|reports\/ReportNotices)\.tsx$/,
  /^src\/services\/(threads\/threads|chats\/chats-menu|reports\/reports)\.effects\.ts$/,
  /^_secretChats-register-/,
];

export interface WindowChunk {
  file: string;
  key: string;
  gzipBytes: number;
  /** Which import brings it: the entry, a chunk's static import, or a dynamic import. */
  why: string;
}

export interface LoadWindow {
  /** Before the list's first paint: what the budget counts. */
  beforePaint: WindowChunk[];
  /** Fetched once the list has painted; not counted. */
  afterPaint: WindowChunk[];
  beforePaintGzip: number;
  afterPaintGzip: number;
}

const gzip = (bytes: Buffer) => zlib.gzipSync(bytes, { level: 6 }).length;

/** The chunks `roots` bring with their static imports, each once, with why it is there. */
function closure(manifest: Manifest, roots: { key: string; why: string }[], skip: Set<string>) {
  const out = new Map<string, string>();
  const visit = (key: string, why: string) => {
    if (out.has(key) || skip.has(key) || !manifest[key]) return;
    out.set(key, why);
    for (const dep of manifest[key].imports ?? []) visit(dep, `static import of ${manifest[key].file}`);
  };
  for (const r of roots) visit(r.key, r.why);
  return out;
}

/** Who imports each dynamically imported chunk: the entry's source modules are named by `importers`. */
export function computeLoadWindow(
  manifest: Manifest,
  sizeOf: (file: string) => number,
  importers: (key: string) => string[] = () => [],
  lists = { before: STARTED_BEFORE_PAINT, after: STARTED_AFTER_PAINT },
): LoadWindow {
  const dynamicWhy = (key: string) => {
    const by = importers(key);
    return by.length ? `import() in ${by.join(', ')}` : 'dynamic import';
  };
  const entries = Object.entries(manifest).filter(([, c]) => c.isEntry);
  const dynamic = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry || k.startsWith('_'));
  const beforeRoots = [
    ...entries.map(([key]) => ({ key, why: 'the entry (index.html)' })),
    ...dynamic.filter((k) => lists.before.some((re) => re.test(k))).map((key) => ({ key, why: dynamicWhy(key) })),
  ];
  const before = closure(manifest, beforeRoots, new Set());
  const afterRoots = dynamic
    .filter((k) => lists.after.some((re) => re.test(k)))
    .map((key) => ({ key, why: `after the list's paint: ${dynamicWhy(key)}` }));
  const after = closure(manifest, afterRoots, new Set(before.keys()));
  const rows = (m: Map<string, string>) =>
    [...m].map(([key, why]) => ({ key, file: manifest[key].file, why, gzipBytes: sizeOf(manifest[key].file) }));
  const beforePaint = rows(before);
  const afterPaint = rows(after);
  return {
    beforePaint,
    afterPaint,
    beforePaintGzip: beforePaint.reduce((n, c) => n + c.gzipBytes, 0),
    afterPaintGzip: afterPaint.reduce((n, c) => n + c.gzipBytes, 0),
  };
}

export function readManifest(outDir: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The app's source modules that `import()` each manifest key (found in src/ by the import's resolved path). */
export function dynamicImporters(srcRoot = 'src'): (key: string) => string[] {
  const byTarget = new Map<string, Set<string>>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        const text = fs.readFileSync(p, 'utf8');
        for (const m of text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
          const target = path.relative(process.cwd(), path.resolve(path.dirname(p), m[1])).replace(/\.tsx?$/, '');
          const set = byTarget.get(target) ?? new Set();
          set.add(path.relative(process.cwd(), p));
          byTarget.set(target, set);
        }
      }
    }
  };
  walk(srcRoot);
  return (key) => [...(byTarget.get(key.replace(/\.tsx?$/, '')) ?? [])];
}

/** The app's source files a built chunk holds (from its source map). */
function chunkSources(outDir: string, file: string): string[] {
  const mapFile = path.join(outDir, `${file}.map`);
  if (!fs.existsSync(mapFile)) return [];
  const map = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { sources: string[] };
  return map.sources
    .map((s) => path.relative(process.cwd(), path.resolve(path.dirname(mapFile), s)))
    .filter((s) => s.startsWith('src/'));
}

/** The modules outside a chunk that `import()` one of the modules in it. */
function chunkImporters(outDir: string, manifest: Manifest): (key: string) => string[] {
  const bySource = dynamicImporters();
  return (key) => {
    const c = manifest[key];
    if (!c) return [];
    const inside = new Set(chunkSources(outDir, c.file));
    const sources = c.src ? [c.src, ...inside] : [...inside];
    const by = new Set(sources.flatMap((s) => bySource(s)).filter((s) => !inside.has(s)));
    return [...by];
  };
}

/** For part (d): why each built file is fetched, by its URL path. */
export function whyFetched(outDir: string): Map<string, string> {
  const manifest = readManifest(outDir);
  const importers = chunkImporters(outDir, manifest);
  const why = new Map<string, string>();
  for (const [key, c] of Object.entries(manifest)) {
    const parts: string[] = [];
    if (c.isEntry) parts.push('the entry (index.html)');
    const by = importers(key);
    if (by.length) parts.push(`import() in ${by.slice(0, 2).join(', ')}${by.length > 2 ? ` (+${by.length - 2})` : ''}`);
    // The entry first: a chunk it imports comes with it, whatever else imports it too.
    const staticBy = Object.values(manifest)
      .filter((o) => o.imports?.includes(key))
      .sort((a, b) => Number(Boolean(b.isEntry)) - Number(Boolean(a.isEntry)))
      .map((o) => (o.isEntry ? `the entry ${o.file}` : (o.src ?? o.file)));
    if (staticBy.length)
      parts.push(
        `static import of ${staticBy.slice(0, 2).join(', ')}${staticBy.length > 2 ? ` (+${staticBy.length - 2})` : ''}`,
      );
    why.set(`/${c.file}`, parts.join('; ') || key);
    for (const css of c.css ?? []) if (!why.has(`/${css}`)) why.set(`/${css}`, `styles of ${c.src ?? c.file}`);
  }
  return why;
}

/** The load window of a build in `outDir`. */
export function measureLoadWindow(outDir: string): LoadWindow {
  const manifest = readManifest(outDir);
  return computeLoadWindow(
    manifest,
    (file) => gzip(fs.readFileSync(path.join(outDir, file))),
    chunkImporters(outDir, manifest),
  );
}
