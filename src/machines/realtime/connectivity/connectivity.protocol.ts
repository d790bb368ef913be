// The connectivity ping's protocol (systemId 'connectivity'): the one event it accepts and what the layout reads.
// Views import this module, never connectivity.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export interface ConnectivityContext {
  latencyMs: number | null;
  online: boolean | null;
}

export type ConnectivityEvent = { type: 'connectivity.check' };

export type PingView = { state: 'unknown' } | { state: 'offline' } | { state: 'measured'; latencyMs: number };

/** What the layout shows: not measured yet, no connection, or the last latency. */
export function selectPing(s: { context: ConnectivityContext }): PingView {
  if (s.context.online === false) return { state: 'offline' };
  if (s.context.latencyMs === null) return { state: 'unknown' };
  return { state: 'measured', latencyMs: s.context.latencyMs };
}

export type ConnectivityRef = MachineRef<ConnectivityContext, ConnectivityEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/realtime/realtime.effects.ts). */
export interface ConnectivityEffects {
  /** Resolves the round-trip time in milliseconds. */
  ping: PromiseActorLogic<number, unknown>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    connectivity: ConnectivityRef;
  }
}
