// The offline store's protocol (systemId 'offlineStore'): whether the app shows live data or what the browser kept
// (src/services/session/offline-cache.ts), and the sign-out that deletes it. Peers and views import this module.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const OFFLINE_BANNER = 'Нет соединения — показаны сохранённые сообщения';

export interface OfflineStoreContext {
  userId: string | null;
  /** Signed in while the previous user's data was being deleted. */
  pendingUserId: string | null;
}

export type OfflineStoreEvent =
  | { type: 'offline.signedIn'; userId: string }
  | { type: 'offline.signedOut' }
  /** The list came from the server (reachable) or, with no answer, from the browser's store (not reachable). */
  | { type: 'offline.listFetched'; reachable: boolean }
  /** The server says a message was deleted for everyone: it leaves the browser's store too. */
  | { type: 'offline.messageDeleted'; conversationId: string; messageId: string };

export type OfflineStoreRef = MachineRef<OfflineStoreContext, OfflineStoreEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/session/session.effects.ts). */
export interface OfflineStoreEffects {
  /** Deletes everything kept for the user. */
  clear: PromiseActorLogic<unknown, { userId: string }>;
  /** Takes one message out of what is kept. */
  forget: PromiseActorLogic<unknown, { userId: string; conversationId: string; messageId: string }>;
  /** Takes out what was deleted for everyone while no page heard it (GET /api/messages/deleted since last time). */
  catchUp: PromiseActorLogic<unknown, { userId: string }>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    offlineStore: OfflineStoreRef;
  }
}
