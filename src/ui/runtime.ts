// Creates the root app actor and the authenticated API client, and ties them together: the client reads the
// session's tokens and asks the session actor to refresh; every session change is persisted to storage.
import { createActor, fromPromise, type InspectionEvent, type Observer, waitFor } from 'xstate';
import { type AppActorRef, appMachine } from '../machines/app/app.machine';
import { sessionMachine } from '../machines/session/session.machine';
import { type ApiClient, createApiClient } from '../services/api';
import { loadSession, type Session, saveSession } from '../services/storage';

export interface Runtime {
  app: AppActorRef;
  api: ApiClient;
}

export function createRuntime(
  options: { machine?: typeof appMachine; inspect?: Observer<InspectionEvent>; stored?: Session | null; baseURL?: string } = {},
): Runtime {
  // The API client reads the session lazily, so it can exist before the actor that provides its data.
  let app: AppActorRef | null = null;
  const sessionRef = () => app!.getSnapshot().context.session;
  const current = () => (app ? sessionRef().getSnapshot().context.session : null);
  const api = createApiClient({
    baseURL: options.baseURL,
    auth: {
      accessToken: () => current()?.accessToken ?? null,
      refreshToken: () => current()?.refreshToken ?? null,
      async refresh() {
        // Requests that fail together share one refresh: the machine ignores the event while refreshing.
        const session = sessionRef();
        session.send({ type: 'session.refresh' });
        const done = await waitFor(session, (s) => !s.matches({ signedIn: 'refreshing' }));
        return done.context.session?.accessToken ?? null;
      },
    },
  });

  const base = options.machine ?? appMachine;
  const machine = base.provide({
    actors: {
      session: sessionMachine.provide({ actors: { fetchMe: fromPromise(() => api.call('me')) as never } }),
    },
  });
  app = createActor(options.machine ? base : machine, {
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
  return { app, api };
}
