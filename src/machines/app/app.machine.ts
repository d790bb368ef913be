// The root actor, built from the registry (src/machines/app/registry.ts): it spawns the session-long actors, each
// under a systemId so any actor can reach another through the typed map of src/machines/shared/system.ts, and the
// view-owned ones as its children while their view is mounted (`actor.open` / `actor.close`,
// src/ui/app/useOwnedActor.ts): in the app's actor system, but with a systemId only where the line has one (an actor
// another one tells), so a page's or a dialog's actor is its view's. What a view tells its actor before the actor
// runs (`actor.send`: its code still on its way) is kept here and delivered, in order, as it starts. The session-long
// ones start in the registry's START_ORDER: the others read who is signed in (and the realtime actor the token) from
// the session when they start.
import {
  type ActorRefFrom,
  type AnyActorRef,
  type AnyStateMachine,
  type EventObject,
  enqueueActions,
  setup,
} from 'xstate';
import type { AppEffects, AppEvent, AppInput, LoadedLine } from './app.protocol';
import { notWired } from '../shared/not-wired';
import { idsOf, type Registry, type RegistryEntry, registry, type SessionId } from './registry';

export type { AppEvent, AppInput } from './app.protocol';

/** One ref per session-long actor, typed by its machine. */
export type AppContext = { [K in SessionId]: ActorRefFrom<Registry[K]['machine']> } & {
  /** What views told their actors whose code is still on its way, by id, in the order told. */
  early: Partial<Record<string, EventObject[]>>;
};

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

const LOADER = 'load.';
/** Whether the root already runs this view-owned actor (its child: most have no systemId to look up). */
const running = (self: AnyActorRef, id: string) => childOf(self, id) !== undefined;
const childOf = (self: AnyActorRef, id: string) =>
  (self.getSnapshot().children as Record<string, AnyActorRef | undefined>)[id];
/** The early events without one id's (delivered, or its view gone). */
const without = (early: AppContext['early'], id: string) => {
  const { [id]: _gone, ...rest } = early;
  return rest;
};
/** A view-owned actor is its owner's: registered in the system only if its line says so (another actor tells it). */
const systemIdOf = (id: string) => ((registry as Record<string, RegistryEntry>)[id]?.systemId ? { systemId: id } : {});
/** Fetches a later line's code and wires it (src/machines/app/wiring.ts provides it). */
rootActors.loadLine = notWired('app.loadLine') as AppEffects['loadLine'] as unknown as AnyStateMachine;

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
  context: ({ spawn, input }) => ({
    ...(Object.fromEntries(
      sessionIds.map((id) => {
        const entry: RegistryEntry = registry[id];
        return [id, spawn(id, { id, systemId: id, input: entry.input?.(input) })];
      }),
    ) as Omit<AppContext, 'early'>),
    early: {},
  }),
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
        // A view's event for its actor, sent from its first paint on: told at once if the actor runs, kept while
        // its code is on its way (a click or a keystroke made meanwhile reaches it), dropped if nothing opened it.
        'actor.send': {
          guard: 'viewOwned',
          actions: enqueueActions(({ context, event, self, enqueue }) => {
            if (event.type !== 'actor.send') return;
            const actor = childOf(self, event.id);
            if (actor) enqueue.sendTo(actor, event.event);
            else if (running(self, `${LOADER}${event.id}`))
              enqueue.assign({
                early: { ...context.early, [event.id]: [...(context.early[event.id] ?? []), event.event] },
              });
          }),
        },
        'actor.close': {
          guard: 'viewOwned',
          actions: enqueueActions(({ context, event, enqueue }) => {
            // Closed while its code was still on its way: nothing is spawned when it arrives, nothing kept for it.
            enqueue.stopChild(`${LOADER}${event.id}`);
            enqueue.stopChild(event.id);
            if (context.early[event.id]) enqueue.assign({ early: without(context.early, event.id) });
          }),
        },
        // The code is here and the view still wants it: the actor starts with what its view told it meanwhile.
        'xstate.done.actor.load.*': {
          actions: enqueueActions(({ context, event, self, enqueue }) => {
            const line = (event as unknown as { output: LoadedLine }).output;
            if (running(self, line.id)) return;
            enqueue.spawnChild(line.machine, { id: line.id, ...systemIdOf(line.id), input: line.input });
            for (const told of context.early[line.id] ?? []) enqueue.sendTo(line.id, told);
            if (context.early[line.id]) enqueue.assign({ early: without(context.early, line.id) });
          }),
        },
        // The chunk could not be fetched: the view opens it again on its next mount; what it told is dropped.
        'xstate.error.actor.load.*': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const id = event.type.slice(`xstate.error.actor.${LOADER}`.length);
            if (context.early[id]) enqueue.assign({ early: without(context.early, id) });
          }),
        },
      },
    },
  },
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;
