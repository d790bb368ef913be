// The root actor, built from the registry (src/machines/app/registry.ts): it spawns the session-long actors, each
// under a systemId so any actor can reach another through the typed map of src/machines/shared/system.ts, and the
// view-owned ones as its children while their view is mounted (`actor.open` / `actor.close`,
// src/ui/app/useOwnedActor.ts): in the app's actor system, but with a systemId only where the line has one (an actor
// another one tells), so a page's or a dialog's actor is its view's. The session-long ones start in the registry's
// START_ORDER: the others read who is signed in (and the realtime actor the token) from the session when they start.
import { type ActorRefFrom, type AnyActorRef, type AnyStateMachine, enqueueActions, setup } from 'xstate';
import type { AppEvent, AppInput } from './app.protocol';
import { notWired } from '../shared/not-wired';
import { idsOf, type Registry, type RegistryEntry, registry, type SessionId } from './registry';

export type { AppEvent, AppInput } from './app.protocol';

/** One ref per session-long actor, typed by its machine. */
export type AppContext = { [K in SessionId]: ActorRefFrom<Registry[K]['machine']> };

const sessionIds = idsOf('session');
const viewOwnedIds = idsOf('owned', 'view');
const viewOwned: string[] = viewOwnedIds;
/** The lines whose code comes with their view (registry `load`): spawned once it is here. */
const loadedLater = new Set<string>(viewOwnedIds.filter((id) => (registry[id] as RegistryEntry).load));
const rootActors: Record<string, AnyStateMachine> = Object.fromEntries(
  [...sessionIds, ...viewOwnedIds].flatMap((id) => {
    const machine = (registry[id] as RegistryEntry).machine;
    return machine ? [[id, machine]] : [];
  }),
);

/** What the loader of a later line gives: the wired machine, for the view that asked (with its input). */
export interface LoadedLine {
  id: string;
  machine: AnyStateMachine;
  input: unknown;
}
const LOADER = 'load.';
/** Whether the root already runs this view-owned actor (its child: most have no systemId to look up). */
const running = (self: AnyActorRef, id: string) =>
  (self.getSnapshot().children as Record<string, unknown>)[id] !== undefined;
/** A view-owned actor is its owner's: registered in the system only if its line says so (another actor tells it). */
const systemIdOf = (id: string) => ((registry as Record<string, RegistryEntry>)[id]?.systemId ? { systemId: id } : {});
/** Fetches a later line's code and wires it (src/machines/app/wiring.ts provides it). */
rootActors.loadLine = notWired<LoadedLine, { id: string; input: unknown }>(
  'app.loadLine',
) as unknown as AnyStateMachine;

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
          actions: enqueueActions(({ event, self, enqueue }) => {
            if (event.type !== 'actor.open' || running(self, event.id)) return;
            // A line whose code comes with its view: fetched first (the view shows its loading state meanwhile).
            if (loadedLater.has(event.id)) {
              enqueue.spawnChild('loadLine', {
                id: `${LOADER}${event.id}`,
                input: { id: event.id, input: event.input },
              });
              return;
            }
            enqueue.spawnChild(event.id, { id: event.id, ...systemIdOf(event.id), input: event.input });
          }),
        },
        'actor.close': {
          guard: 'viewOwned',
          actions: enqueueActions(({ event, enqueue }) => {
            // Closed while its code was still on its way: nothing is spawned when it arrives.
            enqueue.stopChild(`${LOADER}${event.id}`);
            enqueue.stopChild(event.id);
          }),
        },
        // The code is here and the view still wants it.
        'xstate.done.actor.load.*': {
          actions: enqueueActions(({ event, self, enqueue }) => {
            const line = (event as unknown as { output: LoadedLine }).output;
            if (running(self, line.id)) return;
            enqueue.spawnChild(line.machine, { id: line.id, ...systemIdOf(line.id), input: line.input });
          }),
        },
        // The chunk could not be fetched: the view opens it again on its next mount.
        'xstate.error.actor.load.*': {},
      },
    },
  },
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;
