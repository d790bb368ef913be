// The root actor, built from the registry (src/machines/app/registry.ts): it spawns the session-long actors, each
// under a systemId so any actor can reach another through the typed map of src/machines/shared/system.ts, and the
// view-owned ones as its children while their view is mounted (`actor.open` / `actor.close`,
// src/ui/app/useOwnedActor.ts): in the app's actor system, but with a systemId only where the line has one (an actor
// another one tells), so a page's or a dialog's actor is its view's. What a view tells its actor before the actor
// runs (`actor.send`: its code still on its way) is kept here and delivered, in order, as it starts. The session-long
// ones start in the registry's START_ORDER: the others read who is signed in (and the realtime actor the token) from
// the session when they start. A session-long line whose code loads later (its `load`) has a stand-in under its
// systemId until the code is here: what any actor or view sends it meanwhile is kept here and delivered, in order,
// as the actor starts in the stand-in's place.
import {
  type ActorRefFrom,
  type AnyActorRef,
  type AnyStateMachine,
  type EventObject,
  enqueueActions,
  fromCallback,
  setup,
} from 'xstate';
import type { AppEffects, AppEvent, AppInput, LoadedLine } from './app.protocol';
import { notWired } from '../shared/not-wired';
import { type EagerSessionId, idsOf, lateSessionIds, type Registry, type RegistryEntry, registry } from './registry';

export type { AppEvent, AppInput } from './app.protocol';

/** One ref per session-long actor in the first bundle, typed by its machine (the later ones: by systemId). */
export type AppContext = { [K in EagerSessionId]: ActorRefFrom<Registry[K]['machine']> } & {
  /** What was told to actors whose code is still on its way, by id, in the order told. */
  early: Partial<Record<string, EventObject[]>>;
};

const sessionIds = idsOf('session');
/** The session-long lines whose code loads after the first paint: a stand-in holds their systemId meanwhile. */
const late = new Set<string>(lateSessionIds());
const viewOwnedIds = idsOf('owned', 'view');
const viewOwned: string[] = viewOwnedIds;
/** The lines whose code comes with their view (registry `load`): spawned once it is here. */
const loadedLater = new Set<string>(viewOwnedIds.filter((id) => (registry[id] as RegistryEntry).load));
const rootActors: Record<string, AnyStateMachine> = Object.fromEntries(
  [...sessionIds.filter((id) => !late.has(id)), ...viewOwnedIds].flatMap((id) => {
    const machine = (registry[id] as RegistryEntry).machine;
    return machine ? [[id, machine]] : [];
  }),
);

const LOADER = 'load.';
const STAND_IN = 'early.';
const ALL_LATE_RUNNING = 'lateLinesRunning';
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
/** Lets the realtime connection open once the later session-long actors run (src/machines/app/wiring.ts provides it). */
rootActors[ALL_LATE_RUNNING] = notWired(`app.${ALL_LATE_RUNNING}`) as AppEffects['lateLinesRunning'] as never;
/**
 * A later session-long line's place in the system until its code is here: every event sent to its systemId goes to
 * the root (`actor.early`), which keeps it for the actor. It has no snapshot a view reads (src/ui/app/RuntimeContext.tsx).
 */
rootActors.standIn = fromCallback<EventObject, { id: string }>(({ input, receive, sendBack }) => {
  receive((event) => sendBack({ type: 'actor.early', id: input.id, event }));
}) as never;
/** Whether every later session-long line runs now, counting `id`, which is starting. */
const allLateRunning = (self: AnyActorRef, id: string) => [...late].every((l) => l === id || running(self, l));
/** `early` with one more event kept for `id`. */
const keep = (early: AppContext['early'], id: string, event: EventObject) => ({
  ...early,
  [id]: [...(early[id] ?? []), event],
});

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    input: {} as AppInput | undefined,
    events: {} as AppEvent,
  },
  actors: rootActors,
  guards: {
    viewOwned: ({ event }) => viewOwned.includes(event.id),
    late: ({ event }) => event.type === 'actor.early' && late.has(event.id),
  },
}).createMachine({
  id: 'app',
  context: ({ spawn, input }) => {
    const refs = Object.fromEntries(
      sessionIds.flatMap((id) => {
        const entry: RegistryEntry = registry[id];
        if (!late.has(id)) return [[id, spawn(id, { id, systemId: id, input: entry.input?.(input) })]];
        // Its code comes once the list has painted; meanwhile its stand-in is told what it is sent.
        spawn('standIn', { id: `${STAND_IN}${id}`, systemId: id, input: { id } });
        spawn('loadLine', { id: `${LOADER}${id}`, input: { id, input: entry.input?.(input) } });
        return [];
      }),
    ) as Omit<AppContext, 'early'>;
    if (!late.size) spawn(ALL_LATE_RUNNING, { id: ALL_LATE_RUNNING });
    return { ...refs, early: {} };
  },
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
        // Sent to a later session-long actor through its stand-in: kept until it runs, told at once after.
        'actor.early': {
          guard: 'late',
          actions: enqueueActions(({ context, event, self, enqueue }) => {
            if (event.type !== 'actor.early') return;
            const actor = childOf(self, event.id);
            if (actor) enqueue.sendTo(actor, event.event);
            else enqueue.assign({ early: keep(context.early, event.id, event.event) });
          }),
        },
        // The code is here and the view still wants it: the actor starts with what its view told it meanwhile. A
        // session-long actor takes its stand-in's place (stopping it frees the systemId at once) and is told, in
        // order, what was sent to it meanwhile.
        'xstate.done.actor.load.*': {
          actions: enqueueActions(({ context, event, self, enqueue }) => {
            const line = (event as unknown as { output: LoadedLine }).output;
            if (running(self, line.id)) return;
            if (late.has(line.id)) {
              enqueue.stopChild(`${LOADER}${line.id}`);
              enqueue.stopChild(`${STAND_IN}${line.id}`);
            }
            enqueue.spawnChild(line.machine, { id: line.id, ...systemIdOf(line.id), input: line.input });
            for (const told of context.early[line.id] ?? []) enqueue.sendTo(line.id, told);
            if (context.early[line.id]) enqueue.assign({ early: without(context.early, line.id) });
            if (late.has(line.id) && allLateRunning(self, line.id))
              enqueue.spawnChild(ALL_LATE_RUNNING, { id: ALL_LATE_RUNNING });
          }),
        },
        // The chunk could not be fetched: the view opens it again on its next mount; what it told is dropped. (A
        // session-long line's loader tries until its code comes: what it was sent stays kept.)
        'xstate.error.actor.load.*': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const id = event.type.slice(`xstate.error.actor.${LOADER}`.length);
            if (context.early[id] && !late.has(id)) enqueue.assign({ early: without(context.early, id) });
          }),
        },
      },
    },
  },
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;
