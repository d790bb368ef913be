// The browser entry: the inspector (development, ?inspect), the root actor, the router.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { startInspector } from './services/inspector';
import { AppRoutes } from './ui/AppRoutes';
import { RuntimeProvider } from './ui/RuntimeContext';
import { createRuntime } from './ui/runtime';
import './styles/app.css';

async function start() {
  const inspect = await startInspector().catch(() => undefined);
  const runtime = createRuntime({ inspect });
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <RuntimeProvider runtime={runtime}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </RuntimeProvider>
    </StrictMode>,
  );
}

void start();
