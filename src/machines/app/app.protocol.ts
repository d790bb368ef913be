// The root actor's protocol: its input, the events it accepts (a view opening, telling and closing the actor it owns,
// src/ui/app/useOwnedActor.ts) and the session-long children views read from its context. Every other actor is
// reached through the typed map of src/machines/shared/system.ts.
import type { AnyStateMachine, CallbackActorLogic, EventObject, PromiseActorLogic } from 'xstate';
import type { Session } from '../../contract/entities';
import type { ConnectivityRef } from '../realtime/connectivity/connectivity.protocol';
import type { MachineRef } from '../shared/machine-ref';
import type { RealtimeRef } from '../realtime/realtime/realtime.protocol';
import type { SessionRef } from '../session/session/session.protocol';
import type { ViewOwnedActors, ViewOwnedId } from '../shared/system';

export interface AppInput {
  stored?: Session | null;
}

export type AppEvent =
  /** A view shows something whose actor lives exactly as long (a page, a view-owned dialog): spawn it under its systemId. */
  | { type: 'actor.open'; id: ViewOwnedId; input?: unknown }
  /**
   * The view tells its actor before the root runs it (its code still on its way): kept, in order, and delivered as
   * it starts; told at once when it runs; dropped when the view has not opened it.
   */
  | { type: 'actor.send'; id: ViewOwnedId; event: EventObject }
  /** That view went away: stop the actor. */
  | { type: 'actor.close'; id: ViewOwnedId }
  /**
   * Sent to a session-long actor whose code is still on its way (its stand-in under the systemId passes it on): kept,
   * in order, and delivered as it starts.
   */
  | { type: 'actor.early'; id: string; event: EventObject };

/** What views read of the root's context: the session-long actors they always need. */
export interface AppViewContext {
  session: SessionRef;
  realtime: RealtimeRef;
  connectivity: ConnectivityRef;
}

/** The actors the root spawned, by systemId (the view-owned ones while their view is mounted). */
export type AppChildren = { [K in ViewOwnedId]?: ViewOwnedActors[K] };

export type AppRef = MachineRef<AppViewContext, AppEvent, EventObject, AppChildren>;

/**
 * The view-owned actor the root runs under a line's id, read from a root snapshot: undefined until it runs. Views
 * select with this rather than walking the root's children, so how the root keeps them stays its own affair.
 */
export const ownedActorOf =
  <K extends ViewOwnedId>(id: K) =>
  (snapshot: { children: AppChildren }): ViewOwnedActors[K] | undefined =>
    snapshot.children[id] as ViewOwnedActors[K] | undefined;

/** Whether a set of effects fits the registry's lines (the join of the features' effects checks it). */
export type { EffectsFit } from './registry';
/** The session-long actors whose code loads after the first paint (views read them with useLateSessionActor). */
export type { LateSessionId } from './registry';

/** What the loader of a later line gives: the wired machine, for the view that asked (with its input). */
export interface LoadedLine {
  id: string;
  machine: AnyStateMachine;
  input: unknown;
}

/**
 * The root's port: the effect it leaves to the composition (src/machines/app/wiring.ts), beside the registry lines'
 * machines it runs (each provided with its own feature's effects).
 */
export interface AppEffects {
  /** Fetches a later line's code and wires it (a session-long line's until it comes: it is needed for the session). */
  loadLine: PromiseActorLogic<LoadedLine, { id: string; input: unknown }>;
  /**
   * Started once every session-long actor whose code loads later runs: the realtime connection waits for it, so they
   * hear the socket from its first event (src/machines/app/wiring.ts).
   */
  lateLinesRunning: CallbackActorLogic<EventObject>;
}
