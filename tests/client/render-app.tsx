// Renders the whole route tree over a real app actor whose children have their network actors stubbed.
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { fromCallback, fromPromise } from 'xstate';
import { appMachine } from '../../src/machines/app/app.machine';
import { connectivityMachine } from '../../src/machines/connectivity/connectivity.machine';
import { realtimeMachine } from '../../src/machines/realtime/realtime.machine';
import { sessionMachine } from '../../src/machines/session/session.machine';
import type { Session } from '../../src/services/storage';
import { AppRoutes } from '../../src/ui/AppRoutes';
import { RuntimeProvider } from '../../src/ui/RuntimeContext';
import { createRuntime } from '../../src/ui/runtime';

export const user = {
  id: 'u1',
  username: 'anna',
  displayName: 'Анна Петрова',
  avatarUrl: null,
  status: 'ONLINE' as const,
  lastSeenAt: null,
  eblid: '0420',
  bio: null,
  email: null,
};
export const storedSession: Session = { user, accessToken: 'a0', refreshToken: 'r0' };

export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface Stubs {
  login?: (input: { username: string; password: string }) => Promise<unknown>;
  register?: (input: { username: string; displayName: string; password: string }) => Promise<unknown>;
}

function LocationProbe() {
  const l = useLocation();
  return <span data-testid="location">{l.pathname}</span>;
}

export function renderApp(path: string, options: { stored?: Session | null } & Stubs = {}) {
  const never = () => new Promise<never>(() => {});
  const machine = appMachine.provide({
    actors: {
      session: sessionMachine.provide({
        actors: {
          login: fromPromise(({ input }) => (options.login ?? never)(input as never)) as never,
          register: fromPromise(({ input }) => (options.register ?? never)(input as never)) as never,
          logout: fromPromise(async () => ({ ok: true })) as never,
          fetchMe: fromPromise(async () => null) as never,
        },
      }),
      realtime: realtimeMachine.provide({ actors: { socket: fromCallback(() => () => {}) as never } }),
      connectivity: connectivityMachine.provide({ actors: { ping: fromPromise(async () => 7) as never } }),
    },
  });
  const runtime = createRuntime({ machine, stored: options.stored ?? null });
  const view = render(
    <RuntimeProvider runtime={runtime}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </RuntimeProvider>,
  );
  return { ...view, runtime };
}
