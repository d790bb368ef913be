// One actor context at the root: views reach the root app actor and its children (by systemId) from here, never
// services. The composition root (src/app/runtime.ts) creates the actor; src/main.tsx passes it in.
import { createContext, type ReactNode, useContext } from 'react';
import type { AnyActorRef } from 'xstate';
import type { AppActorRef } from '../machines/app/app.machine';

const Ctx = createContext<AppActorRef | null>(null);

export function RuntimeProvider({ app, children }: { app: AppActorRef; children: ReactNode }) {
  return <Ctx.Provider value={app}>{children}</Ctx.Provider>;
}

export function useAppRef(): AppActorRef {
  const app = useContext(Ctx);
  if (!app) throw new Error('RuntimeProvider is missing');
  return app;
}

/** A long-lived child of the app actor by its systemId, typed by the caller (undefined if it is not running). */
export function useSystemActor<T extends AnyActorRef>(systemId: string): T | undefined {
  return useAppRef().system.get(systemId) as T | undefined;
}

export const useSessionRef = () => useAppRef().getSnapshot().context.session;
export const useRealtimeRef = () => useAppRef().getSnapshot().context.realtime;
export const useConnectivityRef = () => useAppRef().getSnapshot().context.connectivity;
