// One actor of the app as its feature declares it (src/machines/<feature>/actors.ts): what it is and how long it
// lives. Its effects are not here: they are the feature's services' (src/services/<feature>/effects.ts), which the
// composition root provides, so a feature's lines import machines only. src/machines/README.md explains the fields.
import type { AnyStateMachine } from 'xstate';
import type { Session } from '../../contract/entities';

export type Lifetime = 'session' | 'owned' | 'child';

export interface ActorLine {
  /** The machine, in the first bundle (absent for a line whose code loads later: `load`). */
  machine?: AnyStateMachine;
  /**
   * A line whose code loads later: its bare machine, fetched when it needs no services, or 'wired' when its effects'
   * `wired` (src/services/<feature>/effects.ts) fetches it with its effects. A loader of the bare machine beside `wired`
   * would be dead code in the first bundle (the diagrams draw the wired machine).
   */
  load?: (() => Promise<AnyStateMachine>) | 'wired';
  /** 'session': the root runs it for the whole session; 'owned': while its owner shows it; 'child': its parent's. */
  lifetime: Lifetime;
  /** Who spawns an 'owned' or 'child' actor: 'view' (useOwnedActor) or its parent machine's id. */
  owner?: string;
  /** Registered in the actor system under its id (its protocol declares the type in shared/system.ts). */
  systemId?: true;
  /** A session-long actor's input, from the root's. */
  input?: (app: { stored?: Session | null } | undefined) => unknown;
}

export type ActorLines = Record<string, ActorLine>;
