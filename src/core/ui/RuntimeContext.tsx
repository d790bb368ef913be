// One actor context at the root: views reach the root app actor and its children (by systemId) from here, never
// services. The composition root (src/core/app/runtime.ts) creates the actor; src/main.tsx passes it in.
import { createContext, type ReactNode, useContext } from 'react';
import type { AppRef } from '../machines/app/app.protocol';
import { type SystemActors, type SystemId, systemActor } from '../machines/system';

const Ctx = createContext<AppRef | null>(null);

export function RuntimeProvider({ app, children }: { app: AppRef; children: ReactNode }) {
  return <Ctx.Provider value={app}>{children}</Ctx.Provider>;
}

export function useAppRef(): AppRef {
  const app = useContext(Ctx);
  if (!app) throw new Error('RuntimeProvider is missing');
  return app;
}

/** A long-lived actor by its systemId, typed by its protocol (src/core/machines/system.ts); undefined if not running. */
export function useSystemActor<K extends SystemId>(systemId: K): SystemActors[K] | undefined {
  return systemActor(useAppRef().system, systemId);
}

/** A session-long actor (spawned by the root for the whole session): always running under the runtime. */
export function useSessionActor<K extends SystemId>(systemId: K): SystemActors[K] {
  const ref = systemActor(useAppRef().system, systemId);
  if (!ref) throw new Error(`the session-long actor "${systemId}" is not running`);
  return ref;
}

export const useSessionRef = () => useAppRef().getSnapshot().context.session;
export const useRealtimeRef = () => useAppRef().getSnapshot().context.realtime;
export const useConnectivityRef = () => useAppRef().getSnapshot().context.connectivity;
