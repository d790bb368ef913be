// The one map from systemId to the actor registered under it, and the typed getter that machines (and, through
// src/ui/app/RuntimeContext.tsx, views) use instead of `system.get`. The map starts empty: each protocol adds its
// own entry by module augmentation (`declare module '…/system' { interface SystemActors { call: CallRef } }`), so
// this module imports nothing and any machine can use it without an import cycle. src/machines/app/registry.ts checks
// at compile time that the registry and this map agree both ways.
import type { ActorSystem } from 'xstate';

// biome-ignore lint/suspicious/noEmptyInterface: filled by module augmentation from each protocol
export interface SystemActors {}

export type SystemId = keyof SystemActors;

// biome-ignore lint/suspicious/noExplicitAny: xstate's own AnyActorSystem, which its index does not export
export type AnySystem = ActorSystem<any>;

/** The actor registered under `id`, typed by its protocol; undefined when it is not running (isolated tests). */
export function systemActor<K extends SystemId>(system: AnySystem, id: K): SystemActors[K] | undefined {
  return system.get(id);
}
