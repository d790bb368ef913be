// Compile-time checks of the registry (src/machines/app/registry.ts) against the typed system map
// (src/machines/shared/system.ts): `npm run typecheck` fails when they disagree either way. Nothing runs here.
import type { ActorRefFrom, AnyStateMachine } from 'xstate';
import type { Registry, RegistryId, SessionId, START_ORDER } from '../../src/machines/app/registry';
import type { OwnedActors, SystemActors } from '../../src/machines/shared/system';

type WithSystemId = { [K in RegistryId]: Registry[K] extends { systemId: true } ? K : never }[RegistryId];
type Verdict<T extends Record<string, true>> = T;
/** A line's machine type: its `machine`, or what its `load` gives (a machine, for one fetched with its effects). */
export type MachineOf<E> = E extends { machine: infer M extends AnyStateMachine }
  ? M
  : E extends { load: () => Promise<infer M extends AnyStateMachine> }
    ? M
    : E extends { load: 'wired' }
      ? AnyStateMachine
      : never;
/** Every session-long line is started: START_ORDER names each once. */
export type StartOrderComplete = Verdict<{ [K in SessionId]: K extends (typeof START_ORDER)[number] ? true : false }>;
/** Every registry line with a systemId has its entry in SystemActors, and the machine's ref fits that entry. */
export type RegistryMatchesSystem = Verdict<{
  [K in WithSystemId]: K extends keyof SystemActors
    ? ActorRefFrom<MachineOf<Registry[K]>> extends SystemActors[K]
      ? true
      : false
    : false;
}>;
/** Every OwnedActors entry is a view-owned line without a systemId, and the machine's ref fits that entry. */
type ViewOwnedWithout = {
  [K in RegistryId]: Registry[K] extends { owner: 'view' }
    ? Registry[K] extends { systemId: true }
      ? never
      : K
    : never;
}[RegistryId];
export type OwnedMatchesRegistry = Verdict<{
  [K in keyof OwnedActors]: K extends ViewOwnedWithout
    ? ActorRefFrom<MachineOf<Registry[K]>> extends OwnedActors[K]
      ? true
      : false
    : false;
}>;
/** Every view-owned line without a systemId has its OwnedActors entry. */
export type RegistryMatchesOwned = Verdict<{ [K in ViewOwnedWithout]: K extends keyof OwnedActors ? true : false }>;
/** Every SystemActors entry is a registry line with a systemId. */
export type SystemMatchesRegistry = Verdict<{ [K in keyof SystemActors]: K extends WithSystemId ? true : false }>;
