// Creates the root app actor and the authenticated API client, and ties them together: the client reads the
// session's tokens and asks the session actor to refresh; every session change is persisted to storage.
import { type InspectionEvent, type Observer, createActor, waitFor } from 'xstate';
import { type AppActorRef, appMachine } from '../machines/app/app.machine';
import { type ApiClient, createApiClient } from '../services/api';
import { loadSession, type Session, saveSession } from '../services/storage';

export interface Runtime {
  app: AppActorRef;
  api: ApiClient;
}

export function createRuntime(
  options: { machine?: typeof appMachine; inspect?: Observer<InspectionEvent>; stored?: Session | null; baseURL?: string } = {},
): Runtime {
  const app = createActor(options.machine ?? appMachine, {
    input: { stored: options.stored !== undefined ? options.stored : loadSession() },
    inspect: options.inspect,
  });
  app.start();
  const session = app.getSnapshot().context.session;

  let persisted: Session | null | undefined;
  session.subscribe((s) => {
    if (s.context.session === persisted) return;
    persisted = s.context.session;
    saveSession(persisted);
  });

  const current = () => session.getSnapshot().context.session;
  const api = createApiClient({
    baseURL: options.baseURL,
    auth: {
      accessToken: () => current()?.accessToken ?? null,
      refreshToken: () => current()?.refreshToken ?? null,
      async refresh() {
        // Requests that fail together share one refresh: the machine ignores the event while refreshing.
        session.send({ type: 'session.refresh' });
        const done = await waitFor(session, (s) => !s.matches({ signedIn: 'refreshing' }));
        return done.context.session?.accessToken ?? null;
      },
    },
  });
  return { app, api };
}
