// A page's or view-owned dialog's actor, alive exactly while the view that calls this is mounted: the root spawns
// the registry's wired machine under its systemId when the view mounts (`actor.open`) and stops it when the view
// goes away (`actor.close`), so it lives in the app's actor system and its own systemActor lookups work. Undefined
// until the root has spawned it (the same commit, before paint: a layout effect).
import { useSelector } from '@xstate/react';
import { useLayoutEffect } from 'react';
import type { SystemActors, SystemId } from '../../machines/shared/system';
import { useAppRef } from './RuntimeContext';

export function useOwnedActor<K extends SystemId>(id: K, input?: unknown): SystemActors[K] | undefined {
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
