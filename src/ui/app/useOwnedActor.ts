// A page's or view-owned dialog's actor, alive exactly while the view that calls this is mounted: the root spawns
// the registry's wired machine as its child when the view mounts (`actor.open`) and stops it when the view
// goes away (`actor.close`), so it lives in the app's actor system (reaching the session-long actors by id) while
// being the view's alone: it has no systemId of its own (but the two lines that say so). Undefined
// until the root has spawned it (the same commit, before paint: a layout effect).
import { useSelector } from '@xstate/react';
import { useLayoutEffect } from 'react';
import type { ViewOwnedActors, ViewOwnedId } from '../../machines/shared/system';
import { useAppRef } from './RuntimeContext';

export function useOwnedActor<K extends ViewOwnedId>(id: K, input?: unknown): ViewOwnedActors[K] | undefined {
  const app = useAppRef();
  const ref = useSelector(app, (s) => s.children[id]);
  // The input of the first mount, as with useMachine: later renders do not restart the actor.
  // biome-ignore lint/correctness/useExhaustiveDependencies: input is read once, at spawn
  useLayoutEffect(() => {
    app.send({ type: 'actor.open', id, input });
    return () => app.send({ type: 'actor.close', id });
  }, [app, id]);
  return ref;
}
