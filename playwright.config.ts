import { defineConfig } from '@playwright/test';

/**
 * The browser the specs drive: Debian's chromium-headless-shell, Chromium's own headless build without the desktop
 * browser around it (no window, no browser UI renderer). The same specs on the full `chromium` in its headless mode took
 * 3.0 min against 2.1 min for six app specs and 2.3 against 1.8 min for the call specs, at a higher load on two cores.
 * CHROMIUM_PATH picks another.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
/** The full browser, for what the headless shell lacks: system notifications and installing the app. */
export const fullChromiumPath = process.env.CHROMIUM_FULL_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];

/** For calls and media: sound plays without a gesture and the whole screen is shared without asking. */
export const mediaChromiumArgs = [
  ...chromiumArgs,
  '--autoplay-policy=no-user-gesture-required',
  '--auto-select-desktop-capture-source=Entire screen',
];

/**
 * Specs that run alone on one worker, after the rest: those that send real media (calls, the embedded media server,
 * TURN) and the secret chats' (MLS in each browser's worker, CPU-heavy: two browser pairs at once would share the
 * two cores with it), among them the server restarts' (a secret chat on three browsers, and recovery timed in seconds).
 */
const SERIAL_SPECS = [
  '**/sfu*.spec.ts',
  '**/calls.spec.ts',
  '**/group-calls.spec.ts',
  '**/voice-calls.spec.ts',
  '**/https-call.spec.ts',
  '**/csp.spec.ts',
  '**/secret-*.spec.ts',
  '**/server-restart.spec.ts',
  '**/guest-links.spec.ts',
  '**/guest-links-secret.spec.ts',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  // Two workers in all, in two passes (scripts/e2e.mjs, `npm run test:e2e`): the other specs on both (each worker has
  // its own server and database), then the serial ones alone on one, so their timing (bandwidth estimates, layer
  // switches, ringing timers, MLS) never competes with another browser pair for the two cores.
  workers: 2,
  projects: [
    { name: 'app', testIgnore: SERIAL_SPECS },
    { name: 'serial', testMatch: SERIAL_SPECS, workers: 1 },
  ],
  timeout: 90_000,
  // One retry on CI only: WebRTC tests depend on Chrome's own layer and bandwidth choices on a loaded 2-core machine;
  // a retried pass is reported as flaky, not hidden.
  retries: process.env.CI ? 1 : 0,
  // Each run's per-test times are kept for `npm run test:timings`.
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'reports/e2e.json' }]],
  use: {
    headless: true,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    permissions: ['camera', 'microphone'],
    trace: 'off',
  },
});
