// The composition root: creates the services and the root app actor with the effects it is given (every feature's,
// joined by line: src/services/app/app-effects.ts), and ties them together (the API client reads the session's
// tokens and asks the session actor to refresh; every session change is persisted).
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import type { AppActorRef } from './app.machine';
import type { SessionActorRef } from '../session/session/session.machine';
import type { Session } from '../../contract/entities';
import { createServices, type ServiceOverrides, type Services, withOverrides } from '../../services/app/services';
import { type LineEffects, wireApp } from './wiring';

export interface Runtime {
  app: AppActorRef;
  services: Services;
}

export interface RuntimeOptions {
  /** Each registry line's effects (src/services/app/app-effects.ts: every feature's). */
  effects: LineEffects;
  /** Replaced services (tests); every other service stays real. */
  services?: ServiceOverrides;
  /** The stored session to start from (default: what storage holds). */
  stored?: Session | null;
  inspect?: Observer<InspectionEvent>;
  baseURL?: string;
}

export function createRuntime(options: RuntimeOptions): Runtime {
  // The services read the session lazily, so they can exist before the actor that provides it.
  let app: AppActorRef | null = null;
  const session = () => (app ? (app.system.get('session') as SessionActorRef) : null);
  const services = withOverrides(createServices({ baseURL: options.baseURL, session }), options.services);

  app = createActor(wireApp(services, options.effects), {
    input: { stored: options.stored !== undefined ? options.stored : services.sessionStore.load() },
    inspect: options.inspect,
  });
  app.start();

  // The session goes to storage for a reload and for the other tabs. A change of the user alone (a profile update)
  // leaves the stored tokens as they are: another tab may have rotated them meanwhile (shared-refresh.ts), and this
  // tab's older ones written over them would hand every tab a token the server has already rotated, whose next
  // presentation ends the sign-in for all of them.
  const sessionActor = app.getSnapshot().context.session;
  let persisted: Session | null = sessionActor.getSnapshot().context.session;
  sessionActor.subscribe((s) => {
    const next = s.context.session;
    if (next === persisted) return;
    const userOnly =
      next !== null &&
      persisted !== null &&
      next.accessToken === persisted.accessToken &&
      next.refreshToken === persisted.refreshToken;
    persisted = next;
    const stored = userOnly ? services.sessionStore.load() : null;
    services.sessionStore.save(next && stored?.user.id === next.user.id ? { ...stored, user: next.user } : next);
  });
  return { app, services };
}
