// Pure rules for a conversation's message history, shared by the conversation and chats machines.
import type { Message, PollInfo, Reaction, TextEntity, ThreadSummary } from '../../../contract/entities';
import { mergePoll } from '../../../contract/poll';

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

/**
 * The latest page into the history: merged, unless it does not reach the newest message held (a gap longer than a
 * page, after a long disconnection), then the history starts again from it.
 */
export function takeLatestPage(
  history: Message[],
  hasMore: boolean,
  page: { messages: Message[]; hasMore: boolean },
): { messages: Message[]; hasMore: boolean } {
  const last = history.at(-1);
  const gap =
    page.hasMore && last !== undefined && page.messages.length > 0 && page.messages[0].createdAt > last.createdAt;
  if (gap) return { messages: mergeMessages([], page.messages), hasMore: true };
  return {
    messages: mergeMessages(history, page.messages),
    hasMore: history.length === 0 ? page.hasMore : hasMore || page.hasMore,
  };
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

/** Several messages leave the list (hidden for oneself). */
export function removeMessages(history: Message[], messageIds: readonly string[]): Message[] {
  const gone = new Set(messageIds);
  return history.some((m) => gone.has(m.id)) ? history.filter((m) => !gone.has(m.id)) : history;
}

export function removeMessage(history: Message[], messageId: string): Message[] {
  return history.some((m) => m.id === messageId) ? history.filter((m) => m.id !== messageId) : history;
}

/** A new text (message:edited, or the answer to an own edit): the message and every quote of it. */
export function applyEdit(
  history: Message[],
  messageId: string,
  content: string,
  editedAt: string,
  mentions?: string[],
  entities?: TextEntity[],
): Message[] {
  let changed = false;
  const next = history.map((m) => {
    let out = m;
    if (m.id === messageId && (m.content !== content || m.editedAt !== editedAt)) {
      // The new text's formatting replaces the old (none: plain).
      const { entities: _, ...rest } = out;
      out = {
        ...rest,
        content,
        editedAt,
        ...(mentions ? { mentions } : {}),
        ...(entities?.length ? { entities } : {}),
      };
    }
    if (m.replyTo?.id === messageId && m.replyTo.content !== content)
      out = { ...out, replyTo: { id: messageId, content } };
    if (out !== m) changed = true;
    return out;
  });
  return changed ? next : history;
}

/** The message's reactions as the server says they are now. */
export function setReactions(history: Message[], messageId: string, reactions: Reaction[]): Message[] {
  return history.some((m) => m.id === messageId)
    ? history.map((m) => (m.id === messageId ? { ...m, reactions } : m))
    : history;
}

/** The root's thread summary as the server last told it (thread:reply); other messages stay as they are. */
export function setThread(history: Message[], rootId: string, thread: ThreadSummary): Message[] {
  return history.some((m) => m.id === rootId) ? history.map((m) => (m.id === rootId ? { ...m, thread } : m)) : history;
}

/** A poll's votes as the server says they are now (an older update than the one shown changes nothing). */
export function setPoll(history: Message[], messageId: string, poll: PollInfo): Message[] {
  return history.some((m) => m.id === messageId)
    ? history.map((m) => (m.id === messageId ? { ...m, poll: mergePoll(m.poll, poll) } : m))
    : history;
}

/** Whether this user gave this reaction to the message. */
export function hasReacted(m: Pick<Message, 'reactions'> | undefined, userId: string, emoji: string): boolean {
  return m?.reactions.some((r) => r.emoji === emoji && r.userIds.includes(userId)) ?? false;
}

/** The user's reaction given (`on`) or taken back, shown before the server answers; emoji keep the set's order. */
export function toggleReaction(
  reactions: Reaction[],
  userId: string,
  emoji: Reaction['emoji'],
  on: boolean,
  order: readonly string[],
): Reaction[] {
  const others = reactions.filter((r) => r.emoji !== emoji);
  const current = reactions.find((r) => r.emoji === emoji)?.userIds.filter((u) => u !== userId) ?? [];
  const userIds = on ? [...current, userId] : current;
  const next = userIds.length ? [...others, { emoji, userIds }] : others;
  // The quick ones in their order, then the others as they came (a stable sort keeps that order).
  const rank = (e: string) => (order.includes(e) ? order.indexOf(e) : order.length);
  return next.sort((a, b) => rank(a.emoji) - rank(b.emoji));
}

/**
 * Where «Непрочитанные сообщения» goes: above the `unread`-th newest message from someone else (the first of the
 * unread ones), or the oldest loaded one from someone else when the page holds fewer. Null when nothing is unread.
 */
export function firstUnread(history: Message[], me: string, unread: number): string | null {
  if (unread <= 0) return null;
  let left = unread;
  let found: string | null = null;
  for (let i = history.length - 1; i >= 0 && left > 0; i--) {
    const m = history[i];
    if (!countsAsUnread(m, me)) continue;
    found = m.id;
    left -= 1;
  }
  return found;
}

/** What the server counts as unread: messages from others, a group's changes excepted (docs/groups.md). */
const countsAsUnread = (m: Message, me: string) => m.senderId !== me && m.type !== 'SYSTEM';

/** How many of these messages would count as unread. */
export function countUnreadable(history: Message[], me: string): number {
  let n = 0;
  for (const m of history) if (countsAsUnread(m, me)) n += 1;
  return n;
}
