// The browser entry: the inspector (development, ?inspect), the composition root, the router.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createRuntime } from './app/runtime';
import { startInspector } from './services/inspector';
import { AppRoutes } from './ui/AppRoutes';
import { RuntimeProvider } from './ui/RuntimeContext';
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
void import('./services/service-worker').then((m) => m.registerServiceWorker());
