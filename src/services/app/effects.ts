// What a feature's services give its registry lines (src/machines/<feature>/actors.ts): for each line whose machine
// needs services, the machine with its effects provided (`wire`), or, for a line whose code loads later, a loader of
// that (`wired`). Each feature exports its map from src/services/<feature>/effects.ts; src/services/app/app-effects.ts
// joins them and the composition root (src/machines/app/wiring.ts) provides each line from its entry. A line with
// neither runs its bare machine (a child is provided by its parent's effects).
import type { AnyStateMachine } from 'xstate';
import type { Services } from './services';

export interface Effects {
  /** The machine with its effects provided, from the services. */
  wire?: (s: Services) => AnyStateMachine;
  /** The same for a line whose code loads later: fetched with its effects when first needed. */
  wired?: (s: Services) => Promise<AnyStateMachine>;
}

/** A feature's effects: one entry per registry line of the feature whose machine needs services. */
export type FeatureEffects = Record<string, Effects>;

/** The wire functions an effects module exports (what `later` may pick from it). */
type WireName<M> = { [K in keyof M]: M[K] extends (s: Services) => AnyStateMachine ? K : never }[keyof M];

/**
 * A line whose effects load later: `pick` names its wire function in the module `load` fetches. Each feature writes
 * a module's import() once, so the first bundle carries one loader per chunk, not one per line.
 */
export const later = <M>(load: () => Promise<M>, pick: WireName<M>): Effects => ({
  wired: (s) => load().then((m) => (m[pick] as (s: Services) => AnyStateMachine)(s)),
});
