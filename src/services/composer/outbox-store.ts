// Local storage per user of what the composer keeps across reloads: the outbox (unsent messages) and the drafts.
// The composer decides what is stored and reads it back with its own schema; this only keeps JSON under a per-user
// key, and sign-out removes it (src/services/app/services.ts).
function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled: what is kept then lasts one page view
  }
}

export interface UserStore<T> {
  load(userId: string): unknown;
  save(userId: string, value: T): void;
  /** Sign-out: nothing of it stays in the browser. */
  clear(userId: string): void;
}

function userStore<T>(prefix: string, empty: T, isEmpty: (value: T) => boolean): UserStore<T> {
  const keyOf = (userId: string) => `${prefix}${userId}`;
  return {
    load(userId) {
      const raw = store()?.getItem(keyOf(userId));
      if (!raw) return empty;
      try {
        return JSON.parse(raw);
      } catch {
        return empty;
      }
    },
    save(userId, value) {
      const s = store();
      if (!s) return;
      try {
        if (isEmpty(value)) s.removeItem(keyOf(userId));
        else s.setItem(keyOf(userId), JSON.stringify(value));
      } catch {
        /* quota exceeded: it still works for this page view */
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
}

export type OutboxStore = UserStore<unknown[]>;
export const localOutboxStore: OutboxStore = userStore<unknown[]>('beseda.outbox.', [], (items) => items.length === 0);

/** Drafts by conversation id. */
export type DraftStore = UserStore<Record<string, unknown>>;
export const localDraftStore: DraftStore = userStore<Record<string, unknown>>(
  'beseda.drafts.',
  {},
  (drafts) => Object.keys(drafts).length === 0,
);
