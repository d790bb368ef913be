// The load window's budget (bench/client/load-window.ts, `BENCH_PARTS=bundle npm run bench:client`) on made-up
// manifests: what start-up asks for before the list's first paint counts with everything it imports, what comes
// after the paint does not, and a window over the budget is over it even when the entry alone is not.
import { describe, expect, it } from 'vitest';
import { computeLoadWindow, LOAD_WINDOW_BUDGET_GZIP_BYTES, type Manifest } from '../../bench/client/load-window';

const KB = 1024;
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_framework.js'],
    dynamicImports: ['src/ui/chats/ChatsPage.tsx', 'src/services/realtime/socket.ts', 'src/ui/Settings.tsx'],
  },
  '_framework.js': { file: 'assets/framework.js' },
  '_shared.js': { file: 'assets/shared.js' },
  'src/ui/chats/ChatsPage.tsx': { file: 'assets/ChatsPage.js', isDynamicEntry: true, imports: ['_shared.js'] },
  'src/services/realtime/socket.ts': { file: 'assets/socket.js', isDynamicEntry: true, imports: ['_framework.js'] },
  'src/ui/Settings.tsx': { file: 'assets/Settings.js', isDynamicEntry: true },
};
const sizes = (s: Record<string, number>) => (file: string) => s[file] ?? 0;
const lists = { before: [/ChatsPage\.tsx$/], after: [/socket\.ts$/] };

describe('the load window', () => {
  it('counts the entry with its static imports and what start-up loads before the paint, with theirs', () => {
    const w = computeLoadWindow(
      manifest,
      sizes({
        'assets/index.js': 40 * KB,
        'assets/framework.js': 90 * KB,
        'assets/ChatsPage.js': 5 * KB,
        'assets/shared.js': 3 * KB,
        'assets/socket.js': 12 * KB,
        'assets/Settings.js': 50 * KB,
      }),
      (key) => (key.endsWith('ChatsPage.tsx') ? ['src/ui/app/AppRoutes.tsx'] : []),
      lists,
    );
    expect(w.beforePaint.map((c) => c.file).sort()).toEqual(
      ['assets/ChatsPage.js', 'assets/framework.js', 'assets/index.js', 'assets/shared.js'].sort(),
    );
    expect(w.beforePaintGzip).toBe(138 * KB);
    expect(w.beforePaintGzip).toBeLessThanOrEqual(LOAD_WINDOW_BUDGET_GZIP_BYTES);
    expect(w.beforePaint.find((c) => c.file === 'assets/ChatsPage.js')?.why).toBe(
      'import() in src/ui/app/AppRoutes.tsx',
    );
    expect(w.beforePaint.find((c) => c.file === 'assets/shared.js')?.why).toBe('static import of assets/ChatsPage.js');
    // The prefetch after the paint: the socket, without the framework the entry already brought; a page never
    // loaded at start is in neither.
    expect(w.afterPaint.map((c) => c.file)).toEqual(['assets/socket.js']);
    expect(w.afterPaintGzip).toBe(12 * KB);
  });

  it('fails the budget when a chunk loaded before the paint pushes the window over it, though the entry fits', () => {
    const w = computeLoadWindow(
      manifest,
      sizes({
        'assets/index.js': 40 * KB,
        'assets/framework.js': 90 * KB,
        'assets/ChatsPage.js': 15 * KB,
        'assets/shared.js': 6 * KB,
      }),
      () => [],
      lists,
    );
    const entryOnly = w.beforePaint
      .filter((c) => c.file === 'assets/index.js' || c.file === 'assets/framework.js')
      .reduce((n, c) => n + c.gzipBytes, 0);
    expect(entryOnly).toBeLessThanOrEqual(LOAD_WINDOW_BUDGET_GZIP_BYTES);
    expect(w.beforePaintGzip).toBe(151 * KB);
    expect(w.beforePaintGzip).toBeGreaterThan(LOAD_WINDOW_BUDGET_GZIP_BYTES);
  });

  it('counts what is moved before the paint: the same socket chunk then adds to the window', () => {
    const s = sizes({ 'assets/index.js': 40 * KB, 'assets/framework.js': 90 * KB, 'assets/socket.js': 21 * KB });
    const after = computeLoadWindow(manifest, s, () => [], lists);
    const before = computeLoadWindow(manifest, s, () => [], { before: [/socket\.ts$/], after: [] });
    expect(after.beforePaintGzip).toBe(130 * KB);
    expect(before.beforePaintGzip).toBe(151 * KB);
    expect(before.beforePaintGzip).toBeGreaterThan(LOAD_WINDOW_BUDGET_GZIP_BYTES);
  });
});
