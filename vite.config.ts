import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import type { Plugin, Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';
import { THEME_INIT_SCRIPT } from './src/contract/theme.js';

const serverTarget = process.env.VITE_DEV_SERVER_TARGET ?? 'http://localhost:4000';

/** Text files the build writes Brotli (.br) and gzip (.gz) copies of; the server sends the best one accepted. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
const brotli = (quality: number) =>
  defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: quality } });

/**
 * Builds src/services/app/early-requests.ts as its own small module and puts it in <head> before the main bundle, so a
 * signed-in load asks for the first screen's data while the bundle still downloads (the module says why).
 */
function earlyRequestsScript(entry: string): Plugin {
  const holds = (c: Rolldown.OutputChunk) =>
    Object.keys(c.modules).some((id) => id.endsWith(entry) && c.modules[id].renderedLength > 0);
  return {
    name: 'beseda-early-requests',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: entry, name: 'early-requests' });
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        // async: run as soon as it arrives, not after the style sheets (which hold back deferred scripts).
        // The chunk that holds the module's code (the main bundle imports the same one), not the entry facade that
        // would only import it: the browser would learn of the real file one round trip later.
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c): c is Rolldown.OutputChunk => c.type === 'chunk' && holds(c),
        );
        if (!chunk) throw new Error(`${entry} was not built`);
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, crossorigin: true, src: `/${chunk.fileName}` },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
    generateBundle(_options, bundle) {
      // The facade is then unused: a file of one import statement.
      for (const [name, c] of Object.entries(bundle)) {
        if (c.type === 'chunk' && c.facadeModuleId?.endsWith(entry) && !holds(c)) delete bundle[name];
      }
    },
  };
}

/** The theme's pre-paint script, inline at the top of <head> (src/contract/theme.ts; the CSP allows it by hash). */
function themeInitScript(): Plugin {
  return {
    name: 'beseda-theme-init',
    transformIndexHtml: () => [{ tag: 'script', children: THEME_INIT_SCRIPT, injectTo: 'head-prepend' }],
  };
}

/**
 * The emoji picker's data (frimousse reads emojibase's `<locale>/data.json` and `messages.json`), served from this
 * server rather than a CDN: written into the build, and answered by the dev server from node_modules.
 */
function emojiData(locales: string[]): Plugin {
  const files = locales.flatMap((l) => [`${l}/data.json`, `${l}/messages.json`]);
  const source = (f: string) =>
    readFileSync(fileURLToPath(new URL(`./node_modules/emojibase-data/${f}`, import.meta.url)));
  return {
    name: 'beseda-emoji-data',
    generateBundle() {
      for (const f of files) this.emitFile({ type: 'asset', fileName: `emoji/${f}`, source: source(f) });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const f = files.find((x) => req.url === `/emoji/${x}`);
        if (!f) return next();
        res.setHeader('Content-Type', 'application/json');
        res.end(source(f));
      });
    },
  };
}

/** The first screen's modules that lazy chunks import too, kept in the one `base` chunk (see codeSplitting below). */
/**
 * The chunks of the secret chats' effects (src/services/secretChats/secretChats*.effects.ts): the background
 * registration's loads on every signed-in page once it is idle, the device actor's and the approval's when a secret
 * chat or an approval needs them, the dialogs' when one is first opened.
 */
const BACKGROUND_CHUNK = /(^|\/)secretChats-(approval-|dialogs-|register-)?[A-Za-z0-9_-]{8}\.js$/;

/**
 * The background registration's modules (its effects, its machine, the worker's client and the method lists, and the
 * news that this browser asked for approval).
 */
const SECRET_REGISTRATION =
  /src[\\/](machines[\\/]secretChats[\\/]secretRegistration[\\/]secretRegistration\.(machine|protocol)|services[\\/]secretChats[\\/](secretChats-register\.effects|approval-asked|crypto[\\/](worker-client|secret-crypto|identity-api|recovery-api)))\.ts$/;

const FIRST_SCREEN_SHARED = [
  // Small ones: the contract's failure, shape, limits and formatting, the runtime context, the lazy-view helper.
  /src[\\/](contract[\\/](failure|shape|limits|format)|machines[\\/](shared[\\/](not-wired|system)|realtime[\\/]realtime[\\/]listen-to-server)|ui[\\/](app[\\/]RuntimeContext|shared[\\/](lazy-view|ChatAvatar)))\.tsx?$/,
  // The session-long actors' code the first screen runs (session, realtime, contacts), the chat tile's model and
  // the footer's hooks.
  /src[\\/](contract[\\/]poll\.ts$|machines[\\/](session[\\/]|realtime[\\/](realtime|connectivity|requestQueue)[\\/]|contacts[\\/]contacts[\\/]|chats[\\/]chats[\\/]chats\.protocol|shared[\\/](present|watchers)|conversation[\\/]conversation[\\/]read-mark)|ui[\\/](shared[\\/]useChatList|conversation[\\/](chat-tile|tile-line|system-text|voice-call-text)|profile[\\/](index|useOwnUser|useAvatarEditor)|contacts[\\/]useContacts|app[\\/]useOwnedActor))/,
  // The API's addresses and the search's protocol, which the first screen and the chunks loaded later (the API
  // client's transport, the search results) both import.
  /src[\\/](services[\\/]app[\\/]endpoints|machines[\\/]search[\\/]search[\\/]search\.protocol)\.ts$/,
];

/**
 * Server suites that need a process of their own (see the `server` project below): among them every suite that runs
 * the Rust SDK (`@livekit/rtc-node`), whose `dispose()` at a suite's end stops its native runtime for the whole
 * process, so a later suite's client in the same worker never connects (tests/server/database-suites.test.ts checks).
 */
export const ISOLATED_SERVER_FILES = [
  'tests/server/livekit-webhooks.test.ts',
  'tests/server/sfu-app.test.ts',
  'tests/server/sfu-rtc-node.test.ts',
  'tests/server/sfu-token-refresh.test.ts',
  'tests/server/sfu-worker-sockets.test.ts',
  'tests/server/sfu-workers.test.ts',
  'tests/server/socket-contract.test.ts',
];

/**
 * View suites that need a fresh module graph: they assert what a lazy chunk's module-level cache holds before its
 * first load, or where the router's history starts (see the `views` project below).
 */
const ISOLATED_VIEW_FILES = [
  'src/ui/app/guards.test.tsx',
  // Spawns every lazily loaded line, secret chats' and the history import's among them, whose code shares the crypto
  // worker's client and the browser's storage with the view files before it: in the shared graph of a full run
  // those lines never spawned (15 s each, 8 lines), alone they spawn in milliseconds.
  'src/ui/app/owned-first-event.test.tsx',
  'src/ui/shared/lazy-preload.test.tsx',
  'src/ui/shared/lazy-views.test.tsx',
];

export default defineConfig({
  plugins: [
    react(),
    themeInitScript(),
    emojiData(['ru']),
    earlyRequestsScript('src/services/app/early-requests.ts'),
    // The web app manifest and the service worker (src/sw/service-worker.ts, Workbox): the worker precaches every
    // file of this build but source maps and compressed copies; the page registers it after loading
    // (src/services/app/service-worker.ts), so it never competes with the first paint.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'service-worker.ts',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      // globPatterns below already lists the icons and sounds.
      includeManifestIcons: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,wav,webmanifest}'],
        globIgnores: ['**/*.map', '**/*.br', '**/*.gz', 'service-worker.js'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        // The worker's own build: no source map shipped beside it.
        sourcemap: false,
      },
      manifest: {
        id: '/',
        name: 'Беседа',
        short_name: 'Беседа',
        description: 'Беседа — чаты, звонки и друзья на вашем сервере',
        lang: 'ru',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#3b6cf0',
        background_color: '#f5f7fb',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
    // Compressed once at build time at the highest levels (a server compressing per request would use low ones);
    // server/http/client-static.ts serves them. A copy not smaller than its file is skipped (identity is served).
    compression({
      include: COMPRESSIBLE,
      threshold: 0,
      algorithms: [brotli(constants.BROTLI_MAX_QUALITY), defineAlgorithm('gzip', { level: 9 })],
      logLevel: 'silent',
    }),
    // Source maps (read by developer tools only, and served only with SERVE_SOURCE_MAPS) at quicker levels: at
    // the highest, Brotli takes ≈ 10 s per megabyte, on every build.
    compression({
      include: /\.map$/,
      threshold: 0,
      algorithms: [brotli(5), defineAlgorithm('gzip', { level: 6 })],
      logLevel: 'silent',
    }),
  ],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: serverTarget, changeOrigin: true },
      '/uploads': { target: serverTarget, changeOrigin: true },
      '/socket.io': { target: serverTarget, ws: true, changeOrigin: true },
    },
  },
  // React Router's package resolves to its development build under every condition; production builds take the
  // production one (no dev-only checks and warnings on the main thread).
  resolve:
    process.env.NODE_ENV === 'test'
      ? undefined
      : {
          alias: [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                new URL('node_modules/react-router/dist/production/index.mjs', import.meta.url),
              ),
            },
          ],
        },
  // The crypto worker is a module worker (secret-crypto.ts): built as ES modules, its import()s stay chunks of their
  // own (the local search index and its stemmers load on first use, not with the MLS engine).
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // The secret chats' effects load in the background once the first screen has painted (docs/secret-chats.md
    // "Reaching everyone"): its static imports come as the module asks for them rather than as <link rel=modulepreload>
    // elements the page appends first, each of which costs main-thread time on a phone (bench/client, part f); and
    // the first bundle carries no list of them.
    modulePreload: {
      resolveDependencies: (filename, deps) =>
        BACKGROUND_CHUNK.test(filename) ? deps.filter((d) => d.endsWith('.css')) : deps,
    },
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        // The libraries every page runs, in one chunk: split by the lazy views that share them, they would be
        // several small files that compress worse (bench/client, part a).
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|xstate|@xstate[\\/]react|react-router|react-router-dom|use-sync-external-store)[\\/]/,
            },
            // The first screen's modules that lazy chunks import too: one chunk rather than a few dozen of half a
            // kilobyte to a few, each with its own imports, exports and gzip header (bench/client, part a).
            { name: 'base', test: (id: string) => FIRST_SCREEN_SHARED.some((re) => re.test(id)) },
            // The background registration with the crypto worker's client: one chunk to fetch, compile and evaluate
            // on every signed-in page rather than three (bench/client, part f).
            { name: 'secretChats-register', test: (id: string) => SECRET_REGISTRATION.test(id) },
          ],
        },
        // A feature's effects chunk is named for its module without `.effects` (`polls-<hash>.js`): shorter names
        // in the first bundle's loaders, and the names BACKGROUND_CHUNK knows.
        chunkFileNames: (chunk) => `assets/${chunk.name.replace(/\.effects$/, '')}-[hash].js`,
      },
    },
  },
  test: {
    // A worker per core. Vitest's default keeps one core for its main process, which idles here (under 4 % of a
    // core): on two cores that left one worker, and the suite took 550 s against 338 s on two (`npx vitest run`
    // without and with `--maxWorkers=2`, one after the other on this machine; three workers gave 321 s at load 5).
    maxWorkers: Math.max(2, availableParallelism()),
    // Each run's per-file times are kept for `npm run test:timings`.
    reporters: ['default', 'json'],
    outputFile: { json: 'reports/vitest.json' },
    projects: [
      // The server suites share one module graph per worker (importing the server per file cost more than the
      // tests themselves: `npm run test:timings`); each test starts its own server and database, so nothing else
      // is shared. The files that hold process-wide state — the Rust SDK's native runtime, the socket fixture's
      // contract check — keep a fresh one each.
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          exclude: ISOLATED_SERVER_FILES,
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-isolated',
          environment: 'node',
          include: ISOLATED_SERVER_FILES,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Machines, services and pure modules in plain Node; a test file that needs a DOM (storage, location, the
      // wiring that listens on window) says `// @vitest-environment jsdom` in its first line.
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'node',
          isolate: false,
          include: ['src/**/*.test.ts', 'tests/client/**/*.test.ts', 'tests/model/**/*.test.ts'],
        },
      },
      // Views: React rendered into jsdom, with Testing Library's matchers and cleanup. One module graph and one jsdom
      // per worker (a fresh jsdom and React per file cost five times the tests themselves: `npm run test:timings`);
      // Testing Library's cleanup empties the document after each test.
      {
        extends: true,
        test: {
          name: 'views',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx', 'tests/client/**/*.test.tsx'],
          exclude: ISOLATED_VIEW_FILES,
          isolate: false,
          // The wiring suites run the whole app actor (a second when alone): room for a machine busy with the rest.
          testTimeout: 15_000,
          setupFiles: ['tests/client/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'views-isolated',
          environment: 'jsdom',
          include: ISOLATED_VIEW_FILES,
          setupFiles: ['tests/client/setup.ts'],
        },
      },
    ],
  },
});
