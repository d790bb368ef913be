// The offline store's protocol (systemId 'offlineStore'): whether the app shows live data or what the browser kept
// (src/services/session/offline-cache.ts), and the sign-out that deletes it. Peers and views import this module.
import type { MachineRef } from '../../shared/machine-ref';

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

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    offlineStore: OfflineStoreRef;
  }
}
