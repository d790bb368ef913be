// A page's or view-owned dialog's actor, alive exactly while the view that calls this is mounted: the root spawns
// the registry's wired machine as its child when the view mounts (`actor.open`) and stops it when the view
// goes away (`actor.close`), so it lives in the app's actor system (reaching the session-long actors by id) while
// being the view's alone: it has no systemId of its own (but the two lines that say so).
//
// The view can tell it from its first paint on. Until the root runs it (the same commit, before paint, for a line
// in the first bundle; once its code is here for a line that loads later) the view holds a stand-in: what it is
// told goes through the root (`actor.send`), which keeps it and delivers it, in order, as the actor starts; it has
// no snapshot yet (selectors see undefined) and emits nothing.
import { useSelector } from '@xstate/react';
import { useLayoutEffect, useMemo } from 'react';
import type { AnyActorRef, EventObject, Subscription } from 'xstate';
import { type AppRef, ownedActorOf } from '../../machines/app/app.protocol';
import {
  type SystemActors,
  type SystemId,
  systemActor,
  type ViewOwnedActors,
  type ViewOwnedId,
} from '../../machines/shared/system';
import { useAppRef } from './RuntimeContext';

/** A view-owned actor as its view holds it: told at any time, its snapshot absent until it runs. */
export type OwnedRef<R extends AnyActorRef> = Omit<R, 'getSnapshot'> & {
  getSnapshot(): ReturnType<R['getSnapshot']> | undefined;
};

export function useOwnedActor<K extends ViewOwnedId>(id: K, input?: unknown): OwnedRef<ViewOwnedActors[K]> {
  const app = useAppRef();
  const ref = useSelector(app, ownedActorOf(id));
  const standIn = useMemo(() => standInFor(app, id), [app, id]);
  // The input of the first mount, as with useMachine: later renders do not restart the actor.
  // biome-ignore lint/correctness/useExhaustiveDependencies: input is read once, at spawn
  useLayoutEffect(() => {
    app.send({ type: 'actor.open', id, input });
    return () => app.send({ type: 'actor.close', id });
  }, [app, id]);
  return (ref ?? standIn) as OwnedRef<ViewOwnedActors[K]>;
}

/**
 * A view-owned actor another view opened (one with a systemId, which other actors tell), followed as it comes and
 * goes: undefined while it does not run.
 */
export function useRunningActor<K extends ViewOwnedId>(id: K): ViewOwnedActors[K] | undefined {
  return useSelector(useAppRef(), ownedActorOf(id));
}

/**
 * A session-long actor whose code loads once the chat list has painted (a registry line with `load`, such as the call):
 * followed as it comes. Until it runs the view holds a stand-in: what it is told goes to the systemId, where the root
 * keeps it and delivers it, in order, as the actor starts; it has no snapshot yet (selectors see undefined).
 */
export function useLateSessionActor<K extends SystemId & ViewOwnedId>(id: K): OwnedRef<SystemActors[K]> {
  const app = useAppRef();
  const ref = useSelector(app, ownedActorOf(id));
  const standIn = useMemo(
    () => ({
      id,
      send: (event: EventObject) => (systemActor(app.system, id) as AnyActorRef | undefined)?.send(event),
      getSnapshot: () => undefined,
      subscribe: () => quiet,
      on: () => quiet,
    }),
    [app, id],
  );
  return (ref ?? standIn) as OwnedRef<SystemActors[K]>;
}

const quiet: Subscription = { unsubscribe: () => {} };

/** Until the actor runs: its events go to the root, which keeps them for it. */
function standInFor(app: AppRef, id: ViewOwnedId) {
  return {
    id,
    send: (event: EventObject) => app.send({ type: 'actor.send', id, event }),
    getSnapshot: () => undefined,
    subscribe: () => quiet,
    on: () => quiet,
  };
}
