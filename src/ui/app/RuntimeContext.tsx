// One actor context at the root: views reach the root app actor and its children (by systemId) from here, never
// services. The composition root (src/machines/app/runtime.ts) creates the actor; src/main.tsx passes it in, with
// the few effects a view runs itself (ViewPorts: declared here, by the views that need them, and filled in main.tsx).
import { createContext, type ReactNode, useContext } from 'react';
import type { AppRef, LateSessionId } from '../../machines/app/app.protocol';
import type { SecretAttachment } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { type SystemActors, type SystemId, systemActor } from '../../machines/shared/system';

/** Effects a view runs itself, bound to its mount rather than to an actor's state. */
export interface ViewPorts {
  /** Fetches and decrypts one secret chat's attachment (a bubble's picture, voice or file; the lightbox's picture). */
  openSecretAttachment(a: SecretAttachment, signal?: AbortSignal): Promise<Blob>;
  /** The chat list is on the screen: what the first screen held back may be fetched once it has painted. */
  firstScreenShown?(): void;
}

const NO_PORTS: ViewPorts = {
  openSecretAttachment: () => Promise.reject(new Error('RuntimeProvider was given no ports')),
};

const Ctx = createContext<AppRef | null>(null);
const Ports = createContext<ViewPorts>(NO_PORTS);

export function RuntimeProvider({ app, ports, children }: { app: AppRef; ports?: ViewPorts; children: ReactNode }) {
  return (
    <Ctx.Provider value={app}>
      <Ports.Provider value={ports ?? NO_PORTS}>{children}</Ports.Provider>
    </Ctx.Provider>
  );
}

export const useViewPorts = (): ViewPorts => useContext(Ports);
/** The ports alone, for a view rendered without the runtime (its own tests). */
export const ViewPortsProvider = Ports.Provider;

export function useAppRef(): AppRef {
  const app = useContext(Ctx);
  if (!app) throw new Error('RuntimeProvider is missing');
  return app;
}

/**
 * The actors whose code loads after the first paint are read with useLateSessionActor (src/ui/app/useOwnedActor.ts):
 * until they run, their systemId holds a stand-in without their snapshot.
 */
type InFirstBundle = Exclude<SystemId, LateSessionId>;

/** A long-lived actor by its systemId, typed by its protocol (src/machines/shared/system.ts); undefined if not running. */
export function useSystemActor<K extends InFirstBundle>(systemId: K): SystemActors[K] | undefined {
  return systemActor(useAppRef().system, systemId);
}

/** A session-long actor (spawned by the root for the whole session): always running under the runtime. */
export function useSessionActor<K extends InFirstBundle>(systemId: K): SystemActors[K] {
  const ref = systemActor(useAppRef().system, systemId);
  if (!ref) throw new Error(`the session-long actor "${systemId}" is not running`);
  return ref;
}

export const useSessionRef = () => useAppRef().getSnapshot().context.session;
export const useRealtimeRef = () => useAppRef().getSnapshot().context.realtime;
export const useConnectivityRef = () => useAppRef().getSnapshot().context.connectivity;
