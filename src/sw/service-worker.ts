/// <reference lib="webworker" />
// The service worker (built by vite-plugin-pwa's injectManifest, vite.config.ts): it precaches the current build
// (app shell, every chunk, icons, sounds) so the app starts without a network, shows Web Push notifications
// while no tab is open, and brings the app forward when one is clicked. API answers and uploads are never
// cached here: only the build's own files are.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import {
  NOTIFICATION_KINDS,
  type NotificationOpened,
  type NotificationPayload,
  OPEN_CONVERSATION_PARAM,
} from '../contract/notification';
import { isData, presentNotification } from '../services/notifications/notification-present';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

// Pages are not answered from the precache by URL ('/' would be its index.html, cache first): the navigation route
// below decides.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: null, cleanURLs: false });
cleanupOutdatedCaches();

const NOT_THE_APP = [/^\/api\//, /^\/uploads\//, /^\/socket\.io/, /^\/rtc/];
const shell = createHandlerBoundToURL('/index.html');
// Pages: the network first, so a new build takes over on the next load with its own index.html and chunks (the
// chunks it names are fetched from the server, never mixed with this worker's precached older ones); the
// precached shell only when the server does not answer (offline start). index.html itself is never cached at
// runtime: the cache names one consistent build, the precache's.
const fresh = new NetworkFirst({
  cacheName: 'pages-never-stored',
  networkTimeoutSeconds: 4,
  plugins: [{ cacheWillUpdate: async () => null }],
});
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        const response = await fresh.handle(options);
        if (response?.ok) {
          takeOverIfAlone();
          return response;
        }
      } catch {
        // offline: the shell below
      }
      return shell(options);
    },
    { denylist: NOT_THE_APP },
  ),
);

/**
 * A newer worker waiting for this one to go: when a load is the only tab of the app, the new worker takes over at
 * once (that load's page came from the network, so it is of the new build); with other tabs open it waits for
 * them to close, as they may still ask for chunks of the build they run.
 */
function takeOverIfAlone() {
  const waiting = self.registration.waiting;
  if (!waiting) return;
  void self.clients.matchAll({ type: 'window' }).then((tabs) => {
    if (tabs.length <= 1) waiting.postMessage({ type: 'SKIP_WAITING' });
  });
}

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  if (!payload) return;
  event.waitUntil(
    (async () => {
      // A tab of the app in front of the user tells its own story; a push then shows nothing.
      const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      if (payload.kind !== 'call' && tabs.some((t) => t.visibilityState === 'visible' && t.focused)) return;
      await presentNotification(self.registration, payload);
    })(),
  );
});

function readPayload(data: PushMessageData | null): NotificationPayload | null {
  try {
    const p = data?.json() as NotificationPayload | undefined;
    return p && typeof p.conversationId === 'string' && NOTIFICATION_KINDS.includes(p.kind) ? p : null;
  } catch {
    return null;
  }
}

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data as unknown;
  event.notification.close();
  if (!isData(data)) return;
  const opened: NotificationOpened = {
    type: 'notification.opened',
    kind: data.kind,
    conversationId: data.conversationId,
  };
  const done = openApp(opened);
  try {
    event.waitUntil(done);
  } catch {
    // An event the worker did not get from the browser (a test dispatching one) cannot be extended.
  }
});

/** Focuses a tab of the app and tells it what to open; opens one when none is left. */
async function openApp(opened: NotificationOpened): Promise<void> {
  const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const tab = tabs.find((t) => t.focused) ?? tabs[0];
  if (tab) {
    tab.postMessage(opened);
    await tab.focus().catch(() => undefined); // allowed only for a click the user made
    return;
  }
  const url = new URL('/', self.location.origin);
  url.searchParams.set(OPEN_CONVERSATION_PARAM, opened.conversationId);
  await self.clients.openWindow(url.href);
}
