// Pure rules for a conversation's message history, shared by the conversation and chats machines.
import type { Message } from '../../contract/entities';

/** The list needs a positive index for the first row that only decreases as older pages are prepended (virtua shifts on it). */
export const FIRST_ITEM_INDEX = 10_000_000;

const byTime = (a: Message, b: Message) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);

/**
 * Adds messages to a history (ascending by time), each id once: a message already held is replaced (it may
 * carry newer receipts), deleted ones are dropped. Appending newer messages keeps the array's fast path.
 */
export function mergeMessages(history: Message[], incoming: Message[]): Message[] {
  if (incoming.length === 0) return history;
  const index = new Map(history.map((m, i) => [m.id, i]));
  let next = history;
  const fresh: Message[] = [];
  for (const m of incoming) {
    const at = index.get(m.id);
    if (at !== undefined) {
      if (next === history) next = history.slice();
      next[at] = m;
    } else if (!fresh.some((f) => f.id === m.id)) {
      fresh.push(m);
    }
  }
  const visible = fresh.filter((m) => !m.deletedAt);
  const kept = next.filter((m) => !m.deletedAt);
  if (visible.length === 0) return kept.length === next.length ? next : kept;
  const last = kept.at(-1);
  const sorted = visible.slice().sort(byTime);
  if (!last || byTime(sorted[0], last) >= 0) return [...kept, ...sorted];
  return [...kept, ...sorted].sort(byTime); // stable: equal times keep their order
}

/** Older page (ascending) in front of the history; returns the new history and how many rows were added. */
export function prependPage(history: Message[], page: Message[]): { messages: Message[]; added: number } {
  const known = new Set(history.map((m) => m.id));
  const older = page.filter((m) => !known.has(m.id) && !m.deletedAt);
  return { messages: older.length ? [...older, ...history] : history, added: older.length };
}

/** Marks messages as read by a user (receipts:update). Unchanged array when nothing is new. */
export function addReceipts(history: Message[], userId: string, messageIds: string[]): Message[] {
  const ids = new Set(messageIds);
  let changed = false;
  const next = history.map((m) => {
    if (!ids.has(m.id) || m.receipts.some((r) => r.userId === userId)) return m;
    changed = true;
    return { ...m, receipts: [...m.receipts, { userId, status: 'READ' as const }] };
  });
  return changed ? next : history;
}

export function removeMessage(history: Message[], messageId: string): Message[] {
  return history.some((m) => m.id === messageId) ? history.filter((m) => m.id !== messageId) : history;
}

/** Own message delivery as the bubble shows it: read once another participant has a receipt. */
export function isReadByOthers(m: Pick<Message, 'senderId' | 'receipts'>): boolean {
  return m.receipts.some((r) => r.userId !== m.senderId && (r.status === 'READ' || r.status === 'SEEN'));
}
