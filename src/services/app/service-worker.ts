// Registers the service worker (src/sw/service-worker.ts, built to /service-worker.js by vite-plugin-pwa) once the
// page has loaded, in production builds only. Loaded on demand by src/main.tsx, apart from the chats page's
// first bundle.
export const SERVICE_WORKER_URL = '/service-worker.js';

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const register = () => {
    // updateViaCache 'none': the worker script is always asked of the server (it is served no-cache too).
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/', updateViaCache: 'none' }).catch(() => {
      // No worker (private mode, an old browser, plain http on a LAN address): the app works as before.
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
