// Where machines meet services: the root machine with every registry line's effects provided. The effects are the
// features' (src/services/<feature>/effects.ts), given joined by line (src/services/app/app-effects.ts); this module
// provides each line from its entry generically. A machine owned by another gets its wired children provided inside
// it, by the owner's id in the registry; those whose code loads later reach it through its actor `loadOwned`
// (src/machines/shared/owned-code.ts). A session-long line whose code loads later is fetched once the chat list has
// painted, tried again until it comes, and the realtime connection opens only once it runs: it hears the socket
// from the socket's first event (an incoming call is never rung before the call actor is there to hear it).
import { type AnyStateMachine, fromCallback, fromPromise } from 'xstate';
import type { Effects } from '../../services/app/effects';
import { afterFirstPaint } from '../../services/app/first-paint';
import type { Services } from '../../services/app/services';
import type { LoadOwnedEffect, OwnedCode } from '../shared/effects.protocol';
import { appMachine } from './app.machine';
import type { AppEffects, LoadedLine } from './app.protocol';
import { idsOf, lateSessionIds, type RegistryEntry, type RegistryId, registry } from './registry';

/** The effects of the registry's lines, by line id (a line whose machine needs no services has none). */
export type LineEffects = { readonly [K in RegistryId]?: Effects };

const later = (id: RegistryId) => (registry[id] as RegistryEntry).load !== undefined;

/** Before a session-long line's code is fetched again after a failure (offline at start, or a redeploy replaced it). */
export const LATE_LINE_RETRY_MS = 3_000;

export function wireApp(services: Services, effects: LineEffects) {
  // The realtime connection waits until the later session-long actors run (the root starts `lateLinesRunning`):
  // whatever the socket says, they are there to hear it.
  let lateRunning = () => {};
  const lateHere = new Promise<void>((resolve) => {
    lateRunning = resolve;
  });
  const s: Services = {
    ...services,
    connectSocket: (token) => lateHere.then(() => services.connectSocket(token)),
  };
  // Read when a line is wired or fetched, not before: a test may hold a line's loader back.
  const effectsOf = (id: RegistryId): Effects => effects[id] ?? {};

  // A later line's code is fetched once per runtime (again after a failure), then spawned at once on every open.
  const loaded = new Map<RegistryId, Promise<AnyStateMachine>>();
  const fetchLine = (id: RegistryId): Promise<AnyStateMachine> => {
    let machine = loaded.get(id);
    if (!machine) {
      // Its effects' loader when it needs services, else its bare machine. None is needed to show the chat list:
      // on its first load they are fetched once it has painted (src/services/app/first-paint.ts).
      const { wired } = effectsOf(id);
      const { load } = registry[id] as RegistryEntry;
      const fetch = wired ? () => wired(s) : typeof load === 'function' ? load : undefined;
      machine = fetch
        ? afterFirstPaint(fetch).then((m) => withOwned(id, m))
        : Promise.reject(new Error(`registry line ${id} loads nothing`));
      loaded.set(id, machine);
      machine.catch(() => loaded.delete(id));
    }
    return machine;
  };

  /** The machine with the actors it owns provided: wired now, or (code that loads later) through `loadOwned`. */
  function withOwned(id: RegistryId, machine: AnyStateMachine): AnyStateMachine {
    const owned = idsOf('owned', id);
    if (!owned.length) return machine;
    const now = owned.filter((child) => !later(child));
    const lazy = owned.filter(later);
    const loadOwned = fromPromise(
      async (): Promise<OwnedCode<string>> =>
        Object.fromEntries(await Promise.all(lazy.map(async (child) => [child, await fetchLine(child)] as const))),
    );
    return machine.provide({
      actors: {
        ...Object.fromEntries(now.map((child) => [child, wired(child)])),
        ...(lazy.length ? ({ loadOwned } satisfies { loadOwned: LoadOwnedEffect<string> }) : {}),
      },
    });
  }

  /** The line's machine with its effects, and the actors it owns provided the same way. */
  function wired(id: RegistryId): AnyStateMachine {
    const { wire } = effectsOf(id);
    const machine = wire ? wire(s) : (registry[id] as RegistryEntry).machine;
    if (!machine) throw new Error(`registry line ${id} has no machine`);
    return withOwned(id, machine);
  }

  /** A session-long line's code: needed for the session, so fetched until it comes. */
  const lateSession = new Set<string>(lateSessionIds());
  const fetchUntilHere = (id: RegistryId): Promise<AnyStateMachine> =>
    fetchLine(id).catch(
      () =>
        new Promise<AnyStateMachine>((resolve) => setTimeout(() => resolve(fetchUntilHere(id)), LATE_LINE_RETRY_MS)),
    );

  const root = [...idsOf('session'), ...idsOf('owned', 'view')].filter((id) => !later(id));
  const loadLine = fromPromise(
    async ({ input }: { input: { id: string; input: unknown } }): Promise<LoadedLine> => ({
      id: input.id,
      machine: await (lateSession.has(input.id) ? fetchUntilHere : fetchLine)(input.id as RegistryId),
      input: input.input,
    }),
  );
  const lateLinesRunning = fromCallback(() => {
    lateRunning();
  });
  return appMachine.provide({
    actors: {
      ...Object.fromEntries(root.map((id) => [id, wired(id)])),
      loadLine: loadLine satisfies AppEffects['loadLine'] as never,
      lateLinesRunning: lateLinesRunning satisfies AppEffects['lateLinesRunning'] as never,
    },
  });
}
