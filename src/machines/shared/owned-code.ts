// The actors an owner machine runs whose code loads later (registry lines with `load` and owner '<its id>',
// src/machines/app/registry.ts): the composition root gives the owner an actor `loadOwned` that fetches their wired
// machines (once per runtime, again after a failure) and answers them by registry id. The owner keeps them in its
// context and spawns each in the state that shows it, so once they are here an opening starts its actor at once.
import { type AnyActorLogic, type EventObject, type MachineContext, type ProvidedActor, spawnChild } from 'xstate';
import type { OwnedCode } from './effects.protocol';
import { notWired } from './not-wired';

export type { OwnedCode };

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

/**
 * The owner's region that fetches its later code once: `absent` until one of `wanted` asks for it, `loading` while
 * its actor `loadOwned` runs, `here` once the owner's action `keepCode` has kept the answer. A failure goes back to
 * `absent`: the next ask tries again.
 */
export function ownedCodeRegion<Code, E extends string = string>(wanted: readonly E[]) {
  return {
    initial: 'absent' as const,
    states: {
      absent: { on: Object.fromEntries(wanted.map((e) => [e, 'loading' as const])) as Record<E, 'loading'> },
      loading: {
        invoke: {
          id: 'loadOwned',
          src: 'loadOwned' as const,
          onDone: {
            target: 'here' as const,
            actions: { type: 'keepCode' as const, params: ({ event }: { event: { output: Code } }) => event.output },
          },
          onError: 'absent' as const,
        },
      },
      here: {},
    },
  };
}
