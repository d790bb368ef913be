// Where machines meet services: the root machine with every registry line's wiring provided (each feature's
// wiring.ts gives its own; src/core/app/core-wiring.ts the core's). A machine owned by another gets its wired
// children provided inside it, by the owner's id in the registry.
import type { AnyStateMachine } from 'xstate';
import { appMachine } from './app.machine';
import { idsOf, type RegistryEntry, type RegistryId, registry } from './registry';
import type { Services } from './services';

/** The line's machine with its effects, and the actors it owns provided the same way. */
function wired(id: RegistryId, s: Services): AnyStateMachine {
  const entry: RegistryEntry = registry[id];
  const machine = entry.wire ? entry.wire(s) : entry.machine;
  const owned = idsOf('owned', id);
  return owned.length
    ? machine.provide({ actors: Object.fromEntries(owned.map((child) => [child, wired(child, s)])) })
    : machine;
}

export function wireApp(s: Services) {
  const root = [...idsOf('session'), ...idsOf('owned', 'view')];
  return appMachine.provide({ actors: Object.fromEntries(root.map((id) => [id, wired(id, s)])) });
}
