// The browser entry: the inspector (development, ?inspect), the composition root, the router.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createRuntime } from './core/app/runtime';
import { startInspector } from './core/services/inspector';
import { AppRoutes } from './core/ui/AppRoutes';
import { RuntimeProvider } from './core/ui/RuntimeContext';
import './styles/app.css';

async function start() {
  const inspect = await startInspector().catch(() => undefined);
  const { app } = createRuntime({ inspect });
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <RuntimeProvider app={app}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </RuntimeProvider>
    </StrictMode>,
  );
}

void start();
// The service worker: its registration code loads apart from the first bundle.
void import('./core/services/service-worker').then((m) => m.registerServiceWorker());
