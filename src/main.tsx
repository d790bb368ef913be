// The browser entry: the inspector (development, ?inspect), the composition root, the router.
// The design tokens, themes, resets and the controls every page uses, before any feature's styles.
import './ui/shared/tokens.css';
import './ui/shared/themes.css';
import './ui/shared/base.css';
import './ui/shared/controls.css';
import './ui/shared/layout.css';
// Shared views' styles the first screen needs (the avatar, «Не удалось загрузить раздел»).
import './ui/shared/avatar.css';
import './ui/shared/placeholder.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { appEffects } from './services/app/app-effects';
import { createRuntime } from './machines/app/runtime';
import { bridgedRouter } from './services/app/router';
import { earlyRequestsStarted } from './services/app/early-requests';
import { afterFirstPaint, firstScreenShown, holdUntilFirstPaint } from './services/app/first-paint';
import { RouterBridge } from './ui/app/RouterBridge';
import { startInspector } from './services/app/inspector';
import { AppRoutes } from './ui/app/AppRoutes';
import { RuntimeProvider, type ViewPorts } from './ui/app/RuntimeContext';
import { deferLazyViews } from './ui/shared/lazy-view';

// The effects views run themselves; their code loads when first used, not with the first bundle.
const ports: ViewPorts = {
  openSecretAttachment: (a, signal) =>
    import('./services/secretChats/secret-files').then((m) => m.openSecretAttachment(a, signal)),
  firstScreenShown,
};
deferLazyViews(afterFirstPaint);

async function start() {
  // A signed-in load of the chat list: what the list does not need is fetched once it has painted.
  if (earlyRequestsStarted() && window.location.pathname === '/') holdUntilFirstPaint();
  const inspect = await startInspector().catch(() => undefined);
  keepListBelowConversation();
  // The navigation actor reads and moves the address through the page's router (src/services/app/router.ts).
  const router = bridgedRouter(window.location.pathname);
  const { app } = createRuntime({
    effects: appEffects,
    inspect,
    services: { router },
  });
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <RuntimeProvider app={app} ports={ports}>
        <BrowserRouter>
          <RouterBridge onLocation={router.attach} />
          <AppRoutes />
        </BrowserRouter>
      </RuntimeProvider>
    </StrictMode>,
  );
}

/**
 * A conversation's address opened directly (a reload, a link) gets the list under it in the tab's history, so
 * Back on a phone shows the list before it leaves the app, as it does after opening the chat from the list.
 */
function keepListBelowConversation() {
  const { pathname, search, hash } = window.location;
  if (!/^\/c\/[^/]+\/?$/.test(pathname)) return;
  // Only when the address was opened (typed, a link, a bookmark): a reload or Back/Forward already has its history.
  const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  if (entry && entry.type !== 'navigate') return;
  window.history.replaceState(null, '', '/');
  window.history.pushState(null, '', pathname + search + hash);
}

void start();
// The service worker: its registration code loads apart from the first bundle.
void afterFirstPaint(() => import('./services/app/service-worker')).then((m) => m.registerServiceWorker());
