import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

const serverTarget = process.env.VITE_DEV_SERVER_TARGET ?? 'http://localhost:4000';

/** Text files the build writes Brotli (.br) and gzip (.gz) copies of; the server sends the best one accepted. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
const brotli = (quality: number) => defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: quality } });

export default defineConfig({
  plugins: [
    react(),
    // The web app manifest and the service worker (src/sw/service-worker.ts, Workbox): the worker precaches every
    // file of this build but source maps and compressed copies; the page registers it after loading
    // (src/services/service-worker.ts), so it never competes with the first paint.
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
    compression({ include: COMPRESSIBLE, threshold: 0, algorithms: [brotli(constants.BROTLI_MAX_QUALITY), defineAlgorithm('gzip', { level: 9 })], logLevel: 'silent' }),
    // Source maps (read by developer tools only, and served only with SERVE_SOURCE_MAPS) at quicker levels: at
    // the highest, Brotli takes ≈ 10 s per megabyte, on every build.
    compression({ include: /\.map$/, threshold: 0, algorithms: [brotli(5), defineAlgorithm('gzip', { level: 6 })], logLevel: 'silent' }),
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
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 2000 },
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'tests/client/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/client/setup.ts'],
        },
      },
    ],
  },
});
