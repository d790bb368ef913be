// The root actor, built from the registry (src/core/app/registry.ts): it spawns the session-long actors, each
// under a systemId so any actor can reach another through the typed map of src/core/machines/system.ts, and the
// view-owned ones while their view is mounted (`actor.open` / `actor.close`, src/core/ui/useOwnedActor.ts), so
// they too live in the app's actor system. The session comes first in the registry: the others read who is
// signed in (and the realtime actor the token) from it when they start.
import { type ActorRefFrom, type AnyStateMachine, enqueueActions, setup } from 'xstate';
import type { AppEvent, AppInput } from '../machines/app/app.protocol';
import { idsOf, type Registry, type RegistryEntry, registry, type SessionId } from './registry';

export type { AppEvent, AppInput } from '../machines/app/app.protocol';

/** One ref per session-long actor, typed by its machine. */
export type AppContext = { [K in SessionId]: ActorRefFrom<Registry[K]['machine']> };

const sessionIds = idsOf('session');
const viewOwnedIds = idsOf('owned', 'view');
const viewOwned: string[] = viewOwnedIds;
const rootActors: Record<string, AnyStateMachine> = Object.fromEntries(
  [...sessionIds, ...viewOwnedIds].map((id) => [id, registry[id].machine]),
);

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    input: {} as AppInput | undefined,
    events: {} as AppEvent,
  },
  actors: rootActors,
  guards: {
    viewOwned: ({ event }) => viewOwned.includes(event.id),
  },
}).createMachine({
  id: 'app',
  context: ({ spawn, input }) =>
    Object.fromEntries(
      sessionIds.map((id) => {
        const entry: RegistryEntry = registry[id];
        return [id, spawn(id, { id, systemId: id, input: entry.input?.(input) })];
      }),
    ) as AppContext,
  initial: 'running',
  states: {
    running: {
      on: {
        'actor.open': {
          guard: 'viewOwned',
          actions: enqueueActions(({ event, system, enqueue }) => {
            if (event.type !== 'actor.open' || system.get(event.id)) return;
            enqueue.spawnChild(event.id, { id: event.id, systemId: event.id, input: event.input });
          }),
        },
        'actor.close': {
          guard: 'viewOwned',
          actions: enqueueActions(({ event, enqueue }) => enqueue.stopChild(event.id)),
        },
      },
    },
  },
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;
