// The chats actor's protocol (systemId 'chats'): the events it accepts (the view's, the contacts and group
// features' `chats.open`, server events, its composer child's reports), what it emits (`chats.unread`, heard by
// the notifications actor), and its children.
// Peers and views import this module, never chats.machine.ts.
import type { ResponseOf } from '../../../contract/api';
import type {
  ChatSettings,
  Conversation,
  ConversationEntry,
  Message,
  PresenceStatus,
} from '../../../contract/entities';
import type { ComposerParentEvent, ComposerRef } from '../../composer/composer/composer.protocol';
import type { ConversationRef } from '../../conversation/conversation/conversation.protocol';
import type { MachineRef } from '../../shared/machine-ref';

export interface ChatsContext {
  /** The signed-in user's id; null while signed out. */
  me: string | null;
  /** Newest first. */
  entries: ConversationEntry[];
  selectedId: string | null;
  /** The message the selected conversation was opened at (a search result), for its conversation actor. */
  openAt: string | null;
  /** The list has been fetched at least once since sign-in. */
  loaded: boolean;
  /** The tab is visible (with `viewing` and the selection: whether an arriving message counts as unread). */
  pageVisible: boolean;
  /** The chats page is on screen (the user may be on another page with a conversation still selected). */
  viewing: boolean;
  /** Ids of the latest messages seen, so message:new and message:notify of one message count once. */
  recentIds: string[];
  /** The selected conversation's unread count when it was opened (its conversation actor places the divider). */
  openedUnread: number;
}

export type ChatsEvent =
  | { type: 'chats.signedIn'; userId: string }
  | { type: 'chats.signedOut' }
  /**
   * Open a conversation; with messageId, at that message (a search result); `again` opens the open one afresh
   * (its history was cleared).
   */
  | { type: 'chats.open'; conversationId: string; messageId?: string; again?: boolean }
  | { type: 'chats.close' }
  /**
   * A conversation is about to be opened (the list was touched, the service worker has the code): fetch the
   * conversation's machines now; after a failed fetch, try again.
   */
  | { type: 'chats.prepare' }
  | { type: 'chats.refresh' }
  | { type: 'chats.call'; video: boolean }
  | { type: 'chats.visibility'; visible: boolean }
  | { type: 'chats.viewing'; viewing: boolean }
  | { type: 'chats.reconnected' }
  | { type: 'chats.messageArrived'; message: Message }
  | { type: 'chats.messageDeleted'; conversationId: string; messageId: string }
  | { type: 'chats.messageEdited'; conversationId: string; messageId: string; content: string; editedAt: string }
  | { type: 'chats.receipts'; conversationId: string; userId: string; messageIds: string[] }
  | { type: 'chats.presence'; userId: string; status: PresenceStatus; lastSeenAt: string | null; at: string }
  | { type: 'chats.profile'; userId: string; avatarUrl: string | null; displayName: string; deactivated?: boolean }
  | { type: 'chats.conversationAdded'; conversation: Conversation }
  /** A group's members, roles, title or picture changed (conversation:updated). */
  | { type: 'chats.conversationUpdated'; conversation: Conversation }
  /** The user's own settings of a conversation changed (conversation:settings). */
  | { type: 'chats.settings'; conversationId: string; settings: ChatSettings }
  /** The user lost the conversation: left, was removed, or the group ended (conversation:removed). */
  | { type: 'chats.conversationRemoved'; conversationId: string }
  | ComposerParentEvent;

/**
 * A message from someone else counted as unread (its conversation was not in front of the user), once per message,
 * with its conversation as the list knows it (null when the list does not know it yet).
 */
export type ChatsEmitted =
  | { type: 'chats.unread'; message: Message; conversation: Conversation | null }
  /** A conversation was opened (or chosen again) or closed (null): the address follows (the navigation actor). */
  | { type: 'chats.selected'; conversationId: string | null };

/** Tags the chats page reads. */
export const CHATS_TAGS = {
  /** A conversation is selected, but its machines could not be fetched (offline before they were ever here). */
  conversationFailed: 'conversationFailed',
} as const;

export type ChatsRef = MachineRef<
  ChatsContext,
  ChatsEvent,
  ChatsEmitted,
  { conversation?: ConversationRef; composer?: ComposerRef }
>;

/** The list as fetched: from the server, or (`saved`) what the browser kept when the server did not answer. */
export type ListAnswer = ResponseOf<'conversations'> & { saved?: boolean };

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    chats: ChatsRef;
  }
}
