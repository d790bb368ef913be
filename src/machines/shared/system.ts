// The one map from systemId to the actor registered under it, and the typed getter that machines (and, through
// src/ui/app/RuntimeContext.tsx, views) use instead of `system.get`. The map starts empty: each protocol adds its
// own entry by module augmentation (`declare module '…/system' { interface SystemActors { call: CallRef } }`), so
// this module imports nothing and any machine can use it without an import cycle. src/machines/app/registry.ts checks
// at compile time that the registry and this map agree both ways.
import type { ActorSystem } from 'xstate';

// biome-ignore lint/suspicious/noEmptyInterface: filled by module augmentation from each protocol
export interface SystemActors {}

export type SystemId = keyof SystemActors;

/**
 * The actors a view owns (a page, a dialog: `useOwnedActor(id)`), by their registry id. They have no systemId: only
 * the session-long actors (and the few a page's actor is told by others, listed in SystemActors) are reachable
 * from anywhere; an owned actor is reached by its owner, which spawned it. Filled the same way, by each protocol.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by module augmentation from each protocol
export interface OwnedActors {}

export type OwnedId = keyof OwnedActors;

/** What a view may own: a line with `owner: 'view'`, with or without a systemId. */
export type ViewOwnedActors = OwnedActors & SystemActors;
export type ViewOwnedId = OwnedId | SystemId;

// biome-ignore lint/suspicious/noExplicitAny: xstate's own AnyActorSystem, which its index does not export
export type AnySystem = ActorSystem<any>;

/** The actor registered under `id`, typed by its protocol; undefined when it is not running (isolated tests). */
export function systemActor<K extends SystemId>(system: AnySystem, id: K): SystemActors[K] | undefined {
  return system.get(id);
}
