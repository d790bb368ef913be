// Local storage of the outbox per user (unsent messages survive a reload). The composer decides what
// is stored and reads it back with its own schema; this only keeps JSON under a per-user key.
const keyOf = (userId: string) => `beseda.outbox.${userId}`;

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled: the outbox then lasts one page view
  }
}

export interface OutboxStore {
  load(userId: string): unknown;
  save(userId: string, items: unknown[]): void;
  /** Sign-out: nothing of the user's unsent messages stays in the browser. */
  clear(userId: string): void;
}

export const localOutboxStore: OutboxStore = {
  load(userId) {
    const raw = store()?.getItem(keyOf(userId));
    if (!raw) return [];
    try {
      return JSON.parse(raw);
    } catch {
      return [];
    }
  },
  save(userId, items) {
    const s = store();
    if (!s) return;
    try {
      if (items.length) s.setItem(keyOf(userId), JSON.stringify(items));
      else s.removeItem(keyOf(userId));
    } catch {
      /* quota exceeded: the outbox still works for this page view */
    }
  },
  clear(userId) {
    try {
      store()?.removeItem(keyOf(userId));
    } catch {
      /* storage disabled: nothing was kept */
    }
  },
};
