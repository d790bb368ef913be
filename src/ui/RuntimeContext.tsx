// One actor context at the root; leaves select what they need from the children.
import { createContext, type ReactNode, useContext } from 'react';
import type { Runtime } from './runtime';

const Ctx = createContext<Runtime | null>(null);

export function RuntimeProvider({ runtime, children }: { runtime: Runtime; children: ReactNode }) {
  return <Ctx.Provider value={runtime}>{children}</Ctx.Provider>;
}

export function useRuntime(): Runtime {
  const r = useContext(Ctx);
  if (!r) throw new Error('RuntimeProvider is missing');
  return r;
}

export const useSessionRef = () => useRuntime().app.getSnapshot().context.session;
export const useRealtimeRef = () => useRuntime().app.getSnapshot().context.realtime;
export const useConnectivityRef = () => useRuntime().app.getSnapshot().context.connectivity;
