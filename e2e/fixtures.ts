// Playwright fixtures for the browser specs, so a spec names what it needs and reads as behaviour:
//   srv           the app server serving the built client: one per worker, shared by the worker's tests (users are
//                 unique, so tests do not meet); a spec that needs other settings sets `serverOptions` at its top
//                 (its own worker and server) or `privateServerOptions` in a group (a server for each test).
//   mediaServer   the embedded media server beside it, wired as `npm start` wires it (`withMediaServer: true`).
//   createUser    a fresh user, registered and signed in through the REST API.
//   friends       two fresh friends (Анна and Борис) with their direct conversation.
//   newContext    a browser context closed after the test; `openSignedIn` one signed in as a user, with a page open.
//   (automatic)   a test that leaves a browser context of its own open fails: its pages would live on beside the
//                 worker's next tests (reconnecting to a server that is gone, their workers busy) and slow them down.
//   restartableServer  an app server of the test's own in a process of its own, which the test stops (gracefully
//                 or with SIGKILL) and starts again on the same port and data.
import type { BrowserContext, BrowserContextOptions, Page } from '@playwright/test';
import { test as base } from '@playwright/test';
import { chromiumPath, mediaChromiumArgs } from '../playwright.config';
import type { Sfu } from '../server/sfu/index';
import type { TestServer } from '../tests/server/harness';
import {
  type AppWithMediaServer,
  type RestartableServer,
  startAppServer,
  startAppWithMediaServer,
  startRestartableServer,
} from './server';
import { joinRoom } from './sfu-page/callers';
import { type Coturn, startCoturn, turnVia } from './sfu-page/coturn';
import { type SfuHarness, startSfuHarness } from './sfu-page/harness';
import { startUdpRelay, type UdpRelay } from './sfu-page/udp-relay';
import { createUser, type E2EUser, friendsWithConversation, signInContext } from './users';

export { expect } from '@playwright/test';
export type { E2EUser } from './users';
export type { RestartableServer } from './server';

export type ServerOptions = Parameters<typeof startAppServer>[0];

/** A private build (E2E_CLIENT_DIR) keeps the specs independent of other builds of the shared dist/. */
export const defaultServerOptions: ServerOptions = process.env.E2E_CLIENT_DIR
  ? { clientDir: process.env.E2E_CLIENT_DIR }
  : {};

export interface Friends {
  a: E2EUser;
  b: E2EUser;
  conversationId: string;
}

export interface OpenOptions {
  /** Where the page opens (default '/'). */
  path?: string;
  contextOptions?: BrowserContextOptions;
}

interface WorkerFixtures {
  /** Settings of the worker's app server; set at a spec's top level, they give the spec a worker of its own. */
  serverOptions: ServerOptions;
  /** Whether the worker's app server runs with the embedded media server. */
  withMediaServer: boolean;
  /** The worker's app server (and media server when asked for), started when a test first needs it. */
  workerApp: { srv: TestServer; sfu: Sfu | null };
}

interface TestFixtures {
  /** Settings for a server of the test's own (e.g. a 5-s token lifetime that other tests must not share); null: the worker's. */
  privateServerOptions: ServerOptions | null;
  srv: TestServer;
  mediaServer: Sfu;
  createUser: (displayName?: string, prefix?: string) => Promise<E2EUser>;
  friends: Friends;
  newContext: (options?: BrowserContextOptions) => Promise<BrowserContext>;
  openSignedIn: (u: E2EUser, opts?: OpenOptions) => Promise<{ context: BrowserContext; page: Page }>;
  restartableServer: RestartableServer;
  noContextLeftOpen: void;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  serverOptions: [defaultServerOptions, { scope: 'worker', option: true }],
  withMediaServer: [false, { scope: 'worker', option: true }],
  workerApp: [
    async ({ serverOptions, withMediaServer }, use) => {
      if (withMediaServer) {
        const app: AppWithMediaServer = await startAppWithMediaServer(serverOptions);
        await use({ srv: app.srv, sfu: app.sfu });
        await app.close();
      } else {
        const srv = await startAppServer(serverOptions);
        await use({ srv, sfu: null });
        await srv.close();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  // Set up before the test's other fixtures, so torn down after them (the page's and newContext's contexts are
  // closed by then) and after its afterEach hooks: what is still open was opened by the test and never closed.
  noContextLeftOpen: [
    async ({ browser }, use, testInfo) => {
      const before = new Set(browser.contexts());
      await use();
      const left = browser.contexts().filter((c) => !before.has(c));
      for (const c of left) await c.close().catch(() => {});
      if (left.length > 0 && testInfo.status === 'passed')
        throw new Error(
          `${left.length} browser context(s) left open by the test: open them with the newContext fixture, which closes them`,
        );
    },
    { auto: true },
  ],
  privateServerOptions: [null, { option: true }],
  srv: async ({ privateServerOptions, serverOptions, workerApp }, use) => {
    if (!privateServerOptions) return use(workerApp.srv);
    const srv = await startAppServer({ ...serverOptions, ...privateServerOptions });
    await use(srv);
    await srv.close();
  },
  mediaServer: async ({ workerApp }, use) => {
    if (!workerApp.sfu) throw new Error('no media server: test.use({ withMediaServer: true }) at the top of the spec');
    await use(workerApp.sfu);
  },
  createUser: async ({ srv }, use) => {
    await use((displayName, prefix) => createUser(srv.url, displayName, prefix));
  },
  friends: async ({ srv }, use) => {
    await use(await friendsWithConversation(srv.url));
  },
  newContext: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options) => {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context;
    });
    // Each test's browsers go away with it: idle pages slow the next test down on two shared cores.
    for (const c of contexts) await c.close().catch(() => {});
  },
  restartableServer: async ({ serverOptions }, use) => {
    const server = await startRestartableServer({ clientDir: serverOptions?.clientDir ?? undefined });
    await use(server);
    await server.close();
  },
  openSignedIn: async ({ srv, newContext }, use) => {
    await use(async (u, opts = {}) => {
      const context = await newContext({ baseURL: srv.url, ...opts.contextOptions });
      await signInContext(context, u);
      const page = await context.newPage();
      await page.goto(srv.url + (opts.path ?? '/'));
      return { context, page };
    });
  },
});

interface MediaWorkerFixtures {
  /** The embedded SFU alone (its default settings) with the SFU test page (e2e/sfu-page) served beside it. */
  sfuHarness: SfuHarness;
  /** coturn on a free loopback port (the test command installs it: scripts/ensure-test-tools.mjs). */
  coturn: Coturn;
  /** A userspace UDP relay in front of coturn: the link whose loss and rate the network specs set. */
  turnRelay: UdpRelay;
  /** An SFU that hands out TURN credentials for coturn, reached through `turnRelay`. */
  relayedSfu: SfuHarness;
}

interface MediaTestFixtures {
  /** `turnRelay` for one test: its loss and rate cap are lifted again after it. */
  link: UdpRelay;
  /** A caller in a fresh context (camera and microphone allowed) that joined `room` of the harness's SFU as `identity`. */
  openCaller: (h: SfuHarness, identity: string, room: string, options?: Record<string, unknown>) => Promise<Page>;
  /** Starts an SFU harness of the test's own, closed after it. */
  startSfu: (opts?: Parameters<typeof startSfuHarness>[0]) => Promise<SfuHarness>;
}

/**
 * For the specs with calls and media: the browser plays sound without a gesture and shares the screen without
 * asking, the app server runs with its media server, and the SFU harnesses are at hand. Set here, not by each
 * spec, so that the media specs share one worker, its browser and its servers.
 */
export const mediaTest = test.extend<MediaTestFixtures, MediaWorkerFixtures>({
  launchOptions: [
    {
      executablePath: chromiumPath,
      args: mediaChromiumArgs,
    },
    { scope: 'worker' },
  ],
  withMediaServer: [true, { scope: 'worker' }],
  sfuHarness: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const h = await startSfuHarness();
      await use(h);
      await h.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  coturn: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const coturn = await startCoturn();
      await use(coturn);
      await coturn.close();
    },
    { scope: 'worker' },
  ],
  turnRelay: [
    async ({ coturn }, use) => {
      const relay = await startUdpRelay(coturn.port);
      await use(relay);
      await relay.close();
    },
    { scope: 'worker' },
  ],
  relayedSfu: [
    async ({ coturn, turnRelay }, use) => {
      const h = await startSfuHarness({ turn: turnVia(turnRelay.port, coturn) });
      await use(h);
      await h.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  link: async ({ turnRelay }, use) => {
    await use(turnRelay);
    turnRelay.setRate(null);
    turnRelay.setLoss(0);
  },
  openCaller: async ({ newContext }, use) => {
    await use(async (h, identity, room, options = {}) => {
      const context = await newContext({ permissions: ['camera', 'microphone'] });
      const page = await context.newPage();
      await joinRoom(page, h, identity, room, options);
      return page;
    });
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  startSfu: async ({}, use) => {
    const started: SfuHarness[] = [];
    await use(async (opts) => {
      const h = await startSfuHarness(opts);
      started.push(h);
      return h;
    });
    for (const h of started) await h.close();
  },
});
