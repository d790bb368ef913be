// Renders the whole route tree over the real composition root, with the network services replaced.
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { beforeAll } from 'vitest';
import { appEffects } from '../../src/services/app/app-effects';
import { createRuntime } from '../../src/machines/app/runtime';
import type { Services } from '../../src/services/app/services';
import type { Session } from '../../src/services/session/storage';
import { AppRoutes, AuthPages } from '../../src/ui/app/AppRoutes';
import { RuntimeProvider } from '../../src/ui/app/RuntimeContext';
import { openSecretAttachment } from '../../src/services/secretChats/secret-files';
import { never, quietSocket } from '../fixtures/session';

export { deferred, storedSession, user } from '../fixtures/session';

// The sign-in pages are a lazy chunk; here they are fetched before the tests, which then read them at once
// (src/ui/shared/lazy-views.test.tsx covers the loading itself).
beforeAll(() => AuthPages.preload());

/** Sign-in and registration as the test wants them to answer (any value; the machine reads what it needs). */
export interface Stubs {
  login?: (input: { username: string; password: string }) => Promise<unknown>;
  loginSecondFactor?: (input: { challenge: string; code: string; remember?: boolean }) => Promise<unknown>;
  register?: (input: { username: string; displayName: string; password: string }) => Promise<unknown>;
}

function LocationProbe() {
  const l = useLocation();
  return <span data-testid="location">{l.pathname}</span>;
}

export function renderApp(path: string, options: { stored?: Session | null } & Stubs = {}) {
  const runtime = createRuntime({
    effects: appEffects,
    stored: options.stored ?? null,
    services: {
      authApi: {
        login: (options.login ?? never) as Services['authApi']['login'],
        loginSecondFactor: (options.loginSecondFactor ?? never) as Services['authApi']['loginSecondFactor'],
        register: (options.register ?? never) as Services['authApi']['register'],
        logout: async () => ({ ok: true }),
      },
      api: { call: never },
      connectSocket: () => quietSocket(),
      ping: async () => 7,
    },
  });
  const view = render(
    <RuntimeProvider app={runtime.app} ports={{ openSecretAttachment }}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </RuntimeProvider>,
  );
  return { ...view, runtime };
}
