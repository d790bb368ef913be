// Where machines meet services: the root machine with every registry line's wiring provided (each feature's
// wiring.ts gives its own; src/core/app/core-wiring.ts the core's). A machine owned by another gets its wired
// children provided inside it, by the owner's id in the registry.
import { type AnyStateMachine, fromPromise } from 'xstate';
import { appMachine, type LoadedLine } from './app.machine';
import { idsOf, type RegistryEntry, type RegistryId, registry } from './registry';
import type { Services } from './services';

/** The line's machine with its effects, and the actors it owns provided the same way. */
function wired(id: RegistryId, s: Services): AnyStateMachine {
  const entry: RegistryEntry = registry[id];
  const machine = entry.wire ? entry.wire(s) : entry.machine;
  if (!machine) throw new Error(`registry line ${id} has no machine`);
  const owned = idsOf('owned', id);
  return owned.length
    ? machine.provide({ actors: Object.fromEntries(owned.map((child) => [child, wired(child, s)])) })
    : machine;
}

export function wireApp(s: Services) {
  const root = [...idsOf('session'), ...idsOf('owned', 'view')].filter((id) => !(registry[id] as RegistryEntry).load);
  // A later line's code is fetched once per runtime, then spawned at once on every open.
  const loaded = new Map<string, Promise<AnyStateMachine>>();
  const loadLine = fromPromise(async ({ input }: { input: { id: string; input: unknown } }): Promise<LoadedLine> => {
    const entry: RegistryEntry = registry[input.id as RegistryId];
    let machine = loaded.get(input.id);
    if (!machine) {
      machine = entry.load?.wired(s) ?? Promise.reject(new Error(`registry line ${input.id} loads nothing`));
      loaded.set(input.id, machine);
      // A failed fetch is tried again on the next open.
      machine.catch(() => loaded.delete(input.id));
    }
    return { id: input.id, machine: await machine, input: input.input };
  });
  return appMachine.provide({
    actors: { ...Object.fromEntries(root.map((id) => [id, wired(id, s)])), loadLine: loadLine as never },
  });
}
