// The actors an owner machine runs whose code loads later (registry lines with `load` and owner '<its id>',
// src/machines/app/registry.ts): the composition root gives the owner an actor `loadOwned` that fetches their wired
// machines (once per runtime, again after a failure) and answers them by registry id. The owner keeps them in its
// context and spawns each in the state that shows it, so once they are here an opening starts its actor at once.
import { type AnyActorLogic, type EventObject, type MachineContext, type ProvidedActor, spawnChild } from 'xstate';
import { notWired } from './not-wired';

export type OwnedCode<K extends string> = Record<K, AnyActorLogic>;

/** The placeholder of an owner's `loadOwned` (src/machines/app/wiring.ts provides the real one). */
export const loadOwnedNotWired = <K extends string>(owner: string) => notWired<OwnedCode<K>>(`${owner}.loadOwned`);

/**
 * The action that spawns a fetched line under an id (`syncSnapshot`: its snapshots reach the owner as
 * `xstate.snapshot.<id>`). Setup's typed `spawnChild` takes an id only for the sources it names, and this logic comes
 * from the owner's context, so the action is typed as the caller's.
 */
export function spawnOwned<TAction>(logic: AnyActorLogic, id: string, input: unknown, syncSnapshot = false): TAction {
  return spawnChild<MachineContext, EventObject, undefined, EventObject, ProvidedActor>(logic, {
    id,
    input,
    syncSnapshot,
  }) as TAction;
}
