// Sign-outs made without a connection (systemId 'signOutQueue'): the device is cleared at once, and the sign-in
// ends on the server when the connection returns. Peers import this module, never signOutQueue.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

/** Sign-outs waiting for the server, newest last; only their refresh tokens are kept, until revoked. */
export const SIGN_OUT_RETRY_MS = 15_000;

export interface SignOutQueueContext {
  tokens: string[];
}

export type SignOutQueueEvent =
  /** A sign-out could not reach the server: its token was stored; look again. */
  | { type: 'signOut.queued' }
  /** The browser says it is online again. */
  | { type: 'signOut.online' };

export type SignOutQueueRef = MachineRef<SignOutQueueContext, SignOutQueueEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/session/session.effects.ts). */
export interface SignOutQueueEffects {
  /** The tokens stored by sign-outs that did not reach the server. */
  loadPending: PromiseActorLogic<string[], unknown>;
  /** POST /api/auth/logout for the token, then forgets it (also when the server refuses it). */
  revoke: PromiseActorLogic<unknown, { token: string }>;
}

declare module '../../shared/system' {
  interface SystemActors {
    signOutQueue: SignOutQueueRef;
  }
}
