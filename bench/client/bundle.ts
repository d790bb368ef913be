// Initial JavaScript of the chats page: the Vite build's entry chunk with everything it imports statically, plus
// the chats page's own chunk and its static imports if the route is split off (a page reached at '/' loads it at
// once). Sizes are gzip level 6 (what a default nginx/compression middleware sends; level 9 is ~2 % smaller).
// Source maps tell which packages each initial chunk contains, so "livekit-client is not in it" is checked on
// the modules themselves, not guessed from chunk names.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface BundleReport {
  chunks: { file: string; rawBytes: number; gzipBytes: number; why: string }[];
  totalRaw: number;
  totalGzip: number;
  /** Packages (node_modules names) in the initial chunks, by the minified characters their code became. */
  packages: { name: string; minifiedBytes: number; gzipAloneBytes: number }[];
  /** The app's own source files in the initial chunks, largest first: where to look when the budget is missed. */
  appModules: { source: string; minifiedBytes: number; gzipAloneBytes: number }[];
  forbiddenFound: string[];
  lazyChunks: number;
}

export const BUDGET_GZIP_BYTES = 150 * 1024;
/**
 * Not in the initial JS: the calls feature lazy-loads livekit; zod is never in the browser (the client imports the
 * contract's schemas as types only; tests/client/layers.test.ts checks the imports).
 */
export const FORBIDDEN_IN_INITIAL = ['livekit-client', '@livekit/components-react', 'zod'];
/** The chats page's module, if the router splits it into its own chunk. */
const CHATS_PAGE_SOURCES = [/src\/ui\/chats\/ChatsPage\.tsx$/, /src\/ui\/pages\/ChatsPage\.tsx$/];

/** Builds the client into `outDir` with a manifest (without touching dist/, which running e2e tests serve). */
export function buildClient(outDir: string): void {
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
}

/** The static-import closure of a manifest key. */
function closure(manifest: Manifest, key: string, seen: Map<string, string>, why: string) {
  if (seen.has(key)) return;
  seen.set(key, why);
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, seen, `imported by ${manifest[key].file}`);
}

function packageOf(source: string): string | null {
  const m = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/g);
  if (!m) return null;
  return m[m.length - 1].replace('node_modules/', ''); // innermost package for nested node_modules
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes one source-map segment's base64 VLQ fields. */
function decodeVlq(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** How many generated characters each source produced: every mapped segment runs to the next one on its line. */
export function generatedBytesPerSource(code: string, mappings: string): Map<number, number> {
  const bytes = new Map<number, number>();
  for (const [source, pieces] of generatedCodePerSource(code, mappings))
    bytes.set(
      source,
      pieces.reduce((n, p) => n + p.length, 0),
    );
  return bytes;
}

/** The generated code each source produced, as the pieces the source map assigns to it. */
export function generatedCodePerSource(code: string, mappings: string): Map<number, string[]> {
  const lines = code.split('\n');
  const pieces = new Map<number, string[]>();
  let source = 0;
  mappings.split(';').forEach((line, lineIndex) => {
    const length = lines[lineIndex]?.length ?? 0;
    let column = 0;
    const starts: { column: number; source: number | null }[] = [];
    for (const segment of line ? line.split(',') : []) {
      const fields = decodeVlq(segment);
      column += fields[0];
      if (fields.length >= 4) source += fields[1];
      starts.push({ column, source: fields.length >= 4 ? source : null });
    }
    starts.forEach((s, i) => {
      if (s.source === null) return;
      const end = i + 1 < starts.length ? starts[i + 1].column : length;
      const list = pieces.get(s.source) ?? [];
      list.push(lines[lineIndex]?.slice(s.column, end) ?? '');
      pieces.set(s.source, list);
    });
  });
  return pieces;
}

export function measureBundle(outDir: string): BundleReport {
  const manifest: Manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'));
  const initial = new Map<string, string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(manifest, key, initial, 'entry');
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isDynamicEntry && CHATS_PAGE_SOURCES.some((re) => re.test(chunk.src ?? key))) {
      closure(manifest, key, initial, 'chats page (lazy route loaded at /)');
    }
  }
  const chunks = [...initial].map(([key, why]) => {
    const file = manifest[key].file;
    const bytes = fs.readFileSync(path.join(outDir, file));
    return { file, rawBytes: bytes.length, gzipBytes: zlib.gzipSync(bytes, { level: 6 }).length, why };
  });

  const packageCode = new Map<string, string[]>();
  const appCode = new Map<string, string[]>();
  for (const { file } of chunks) {
    const mapFile = path.join(outDir, `${file}.map`);
    if (!fs.existsSync(mapFile)) continue;
    const map = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
    const code = fs.readFileSync(path.join(outDir, file), 'utf8');
    for (const [index, pieces] of generatedCodePerSource(code, map.mappings)) {
      const source = map.sources[index] ?? '';
      const name = packageOf(source) ?? '(app code)';
      packageCode.set(name, [...(packageCode.get(name) ?? []), ...pieces]);
      if (name === '(app code)') {
        const file = path.relative(process.cwd(), path.resolve(path.dirname(mapFile), source));
        appCode.set(file, [...(appCode.get(file) ?? []), ...pieces]);
      }
    }
  }
  // A package's gzip size alone (its own code compressed by itself) is what removing or lazy-loading it would save,
  // give or take the shared context gzip loses.
  const packages = [...packageCode]
    .map(([name, pieces]) => {
      const text = pieces.join('');
      return { name, minifiedBytes: text.length, gzipAloneBytes: zlib.gzipSync(text, { level: 6 }).length };
    })
    .sort((a, b) => b.minifiedBytes - a.minifiedBytes);
  const appModules = [...appCode]
    .map(([source, pieces]) => {
      const text = pieces.join('');
      return { source, minifiedBytes: text.length, gzipAloneBytes: zlib.gzipSync(text, { level: 6 }).length };
    })
    .sort((a, b) => b.minifiedBytes - a.minifiedBytes);
  const packageBytes = new Map(packages.map((p) => [p.name, p.minifiedBytes]));
  return {
    chunks,
    totalRaw: chunks.reduce((n, c) => n + c.rawBytes, 0),
    totalGzip: chunks.reduce((n, c) => n + c.gzipBytes, 0),
    packages,
    appModules,
    forbiddenFound: FORBIDDEN_IN_INITIAL.filter((p) => packageBytes.has(p)),
    lazyChunks: Object.values(manifest).filter((c) => c.isDynamicEntry).length,
  };
}
