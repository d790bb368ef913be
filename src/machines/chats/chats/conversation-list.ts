// Pure rules for the conversation list (docs/behaviour.md §2, §4): newest first, latest message per entry,
// unread counts, presence and profile changes of participants.
import type {
  ChatSettings,
  Conversation,
  ConversationEntry,
  CustomStatus,
  Message,
  PresenceStatus,
  PublicUser,
} from '../../../contract/entities';
import { isMuted } from '../../../contract/format';
import type { ArrivedMessage } from './chats.protocol';

// A conversation without messages sorts by its creation time (docs/behaviour.md §2).
const latestAt = (e: ConversationEntry) => e.conversation.messages[0]?.createdAt ?? e.conversation.createdAt ?? '';

const pinnedAt = (e: ConversationEntry) => (e.settings?.pinned ? (e.settings.pinnedAt ?? '') : null);

/**
 * «Избранное» above everything (docs/behaviour.md §10.31); then pinned chats, in the order they were pinned; then by
 * the latest message time (or, without messages, the creation time), newest first.
 */
export function sortEntries(entries: ConversationEntry[]): ConversationEntry[] {
  return entries
    .map((e, i) => [e, i] as const)
    .sort(([a, i], [b, j]) => {
      const sa = a.conversation.saved === true;
      if (sa !== (b.conversation.saved === true)) return sa ? -1 : 1;
      const pa = pinnedAt(a);
      const pb = pinnedAt(b);
      if (pa !== null || pb !== null) {
        if (pa === null) return 1;
        if (pb === null) return -1;
        if (pa !== pb) return pa < pb ? -1 : 1;
      }
      const ta = latestAt(a);
      const tb = latestAt(b);
      return ta === tb ? i - j : ta < tb ? 1 : -1;
    })
    .map(([e]) => e);
}

/** Whether the user muted the conversation («Без звука») at `now`. */
export const isMutedEntry = (entry: ConversationEntry | undefined, now: number): boolean =>
  isMuted(entry?.settings, now);

/** The user's settings of one conversation changed (another tab, this one, another device). */
export function withSettings(
  entries: ConversationEntry[],
  conversationId: string,
  settings: NonNullable<ConversationEntry['settings']>,
): ConversationEntry[] {
  if (!entries.some((e) => e.conversation.id === conversationId)) return entries;
  return sortEntries(entries.map((e) => (e.conversation.id === conversationId ? { ...e, settings } : e)));
}

export const findEntry = (entries: ConversationEntry[], conversationId: string) =>
  entries.find((e) => e.conversation.id === conversationId);

/** A new latest message (older ones do not replace it); `unreadDelta` adds to the unread count. */
export function withMessage(entries: ConversationEntry[], message: Message, unreadDelta: number): ConversationEntry[] {
  const next = entries.map((e) => {
    if (e.conversation.id !== message.conversationId) return e;
    const current = e.conversation.messages[0];
    const newer = !current || current.createdAt <= message.createdAt;
    // An archived chat comes back with a new message, unless it is muted (as the server reads it).
    const back = newer && e.settings?.archived && !isMutedEntry(e, Date.now());
    return {
      ...e,
      conversation: newer ? { ...e.conversation, messages: [message] } : e.conversation,
      unreadCount: e.unreadCount + unreadDelta,
      ...(back && e.settings ? { settings: { ...e.settings, archived: false } } : {}),
    };
  });
  return sortEntries(next);
}

/**
 * The list as the server answered, with the messages taken while it was being fetched put back where the answer
 * predates them (its latest message is older): their preview, order and unread mark would otherwise go until the
 * next fetch. A message the answer has, or anything newer, is in the server's own count already.
 */
export function withArrivals(entries: ConversationEntry[], arrivals: readonly ArrivedMessage[]): ConversationEntry[] {
  let next = entries;
  for (const { message, unread, mentioned } of arrivals) {
    const entry = findEntry(next, message.conversationId);
    const latest = entry?.conversation.messages[0];
    if (!entry || (latest && (latest.id === message.id || latest.createdAt >= message.createdAt))) continue;
    next = withMessage(next, message, 0);
    if (unread) next = withUnread(next, message.conversationId, (n) => n + 1, mentioned);
  }
  return next;
}

export function withUnread(
  entries: ConversationEntry[],
  conversationId: string,
  unread: (n: number) => number,
  mentioned = false,
) {
  return entries.map((e) => {
    if (e.conversation.id !== conversationId) return e;
    const unreadCount = Math.max(0, unread(e.unreadCount));
    // Read up: no unread mention is left («@» goes); a new mention of the user adds one.
    const unreadMentions = unreadCount === 0 ? 0 : (e.unreadMentions ?? 0) + (mentioned ? 1 : 0);
    return { ...e, unreadCount, ...(unreadMentions || e.unreadMentions ? { unreadMentions } : {}) };
  });
}

export function withUser(entries: ConversationEntry[], userId: string, change: (u: PublicUser) => PublicUser) {
  let changed = false;
  const next = entries.map((e) => {
    if (!e.conversation.participants.some((p) => p.user.id === userId)) return e;
    changed = true;
    const participants = e.conversation.participants.map((p) =>
      p.user.id === userId ? { ...p, user: change(p.user) } : p,
    );
    return { ...e, conversation: { ...e.conversation, participants } };
  });
  return changed ? next : entries;
}

/** Presence from the server; lastSeenAt is the server's, else now on ONLINE or OFFLINE (docs/behaviour.md §4). */
export function presenceChange(status: PresenceStatus, lastSeenAt: string | null, at: string) {
  return (u: PublicUser): PublicUser => ({
    ...u,
    status,
    lastSeenAt: lastSeenAt ?? (status === 'ONLINE' || status === 'OFFLINE' ? at : u.lastSeenAt),
  });
}

/** message:edited: the preview follows when the edited message is the latest one. */
export function withEdit(
  entries: ConversationEntry[],
  conversationId: string,
  messageId: string,
  content: string,
  editedAt: string,
) {
  let changed = false;
  const next = entries.map((e) => {
    const latest = e.conversation.messages[0];
    if (e.conversation.id !== conversationId || latest?.id !== messageId) return e;
    changed = true;
    return { ...e, conversation: { ...e.conversation, messages: [{ ...latest, content, editedAt }] } };
  });
  return changed ? next : entries;
}

/** A server event that changes the list in place (presence, profiles, conversations added, changed or gone). */
export type ListChange =
  | { type: 'chats.messageEdited'; conversationId: string; messageId: string; content: string; editedAt: string }
  | { type: 'chats.presence'; userId: string; status: PresenceStatus; lastSeenAt: string | null; at: string }
  | {
      type: 'chats.profile';
      userId: string;
      avatarUrl: string | null;
      displayName: string;
      deactivated?: boolean;
      /** Present when the status of one's own changed (null: cleared). */
      customStatus?: CustomStatus | null;
    }
  | { type: 'chats.conversationAdded'; conversation: Conversation }
  | { type: 'chats.conversationUpdated'; conversation: Conversation }
  | { type: 'chats.settings'; conversationId: string; settings: ChatSettings }
  | { type: 'chats.conversationRemoved'; conversationId: string }
  /** Who is in a group's call now (null: it ended). */
  | { type: 'chats.groupCall'; conversationId: string; call: { participantIds: string[]; video: boolean } | null };

/** The list after a server event; a conversation the server sends anew keeps this list's unread count. */
export function listAfter(entries: ConversationEntry[], e: ListChange): ConversationEntry[] {
  switch (e.type) {
    case 'chats.messageEdited':
      return withEdit(entries, e.conversationId, e.messageId, e.content, e.editedAt);
    case 'chats.presence':
      return withUser(entries, e.userId, presenceChange(e.status, e.lastSeenAt, e.at));
    case 'chats.profile':
      return withUser(entries, e.userId, (u) => ({
        ...u,
        avatarUrl: e.avatarUrl,
        displayName: e.displayName,
        ...(e.deactivated !== undefined ? { deactivated: e.deactivated } : {}),
        ...(e.customStatus !== undefined ? { customStatus: e.customStatus } : {}),
      }));
    case 'chats.conversationAdded':
      if (findEntry(entries, e.conversation.id)) return entries;
      return sortEntries([...entries, { conversation: e.conversation, unreadCount: 0 }]);
    case 'chats.conversationUpdated': {
      const known = findEntry(entries, e.conversation.id);
      if (!known) return sortEntries([...entries, { conversation: e.conversation, unreadCount: 0 }]);
      return sortEntries(entries.map((x) => (x === known ? { ...x, conversation: e.conversation } : x)));
    }
    case 'chats.settings':
      return withSettings(entries, e.conversationId, e.settings);
    case 'chats.conversationRemoved':
      return entries.filter((x) => x.conversation.id !== e.conversationId);
    case 'chats.groupCall':
      return entries.map((x) =>
        x.conversation.id === e.conversationId ? { ...x, groupCall: e.call ?? undefined } : x,
      );
  }
}

/**
 * Whether the open conversation is secret, from its own entry: null while the list has not loaded and has no entry
 * for it (a cold load into its address), so that nothing is sent until it is known.
 */
/** The list's secret chats, by id. */
export const secretChatIds = (entries: ConversationEntry[]) =>
  entries.filter((e) => e.conversation.secret === true).map((e) => e.conversation.id);

/** The secret chats to announce after a change of the list: null when they are the same as before. */
export function secretChatsChange(before: ConversationEntry[], after: ConversationEntry[]) {
  const was = secretChatIds(before);
  const now = secretChatIds(after);
  return was.length === now.length && now.every((id) => was.includes(id))
    ? null
    : ({ type: 'chats.secretChats', conversationIds: now } as const);
}

export const secretOf = (selectedId: string | null, entries: ConversationEntry[], loaded: boolean) => {
  const entry = selectedId === null ? undefined : findEntry(entries, selectedId);
  if (entry) return entry.conversation.secret === true;
  return loaded || selectedId === null ? false : null;
};

/**
 * The open conversation's selection to announce again when the list changed what is known of it: it turned out to
 * be secret (opened before its entry arrived, as one just created is), or the list came after a cold load into its
 * address. Never from secret back to not (a sealed chat stays sealed). Null: nothing to announce.
 */
export function reselection(selectedId: string | null, before: boolean | null, after: boolean | null) {
  return selectedId !== null && before !== true && after !== before && after !== null
    ? ({ type: 'chats.selected', conversationId: selectedId, secret: after } as const)
    : null;
}
