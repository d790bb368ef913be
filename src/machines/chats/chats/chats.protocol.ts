// The chats actor's protocol (systemId 'chats'): the events it accepts (the view's, other features' `chats.open`,
// server events, the composer's deliveries), what it emits (`chats.unread`, heard by the notifications actor;
// `chats.selected`, heard by the navigation actor and the composer), and its child, the conversation loader.
// Other features do not hold the actor: they use the narrow doors at the end of this module (commands in, emitted
// events and the list's data out). Peers and views import this module, never chats.machine.ts.

import type { ActorRef, PromiseActorLogic, Snapshot } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import type {
  ChatSettings,
  Conversation,
  ConversationEntry,
  CustomStatus,
  Message,
  PresenceStatus,
} from '../../../contract/entities';
import type { ComposerEmitted } from '../../composer/composer/composer.protocol';
import type { MachineRef, SnapshotOf } from '../../shared/machine-ref';
import { type AnySystem, systemActor } from '../../shared/system';
import type { ConversationLoaderRef } from '../conversationLoader/conversationLoader.protocol';

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
  /**
   * Messages taken since the list's fetch began (with whether each counted as unread): an answer the server read
   * before one of them committed would otherwise wipe it and its unread mark until the next fetch.
   */
  sinceFetch: ArrivedMessage[];
  /**
   * The in-place changes taken since the list's fetch began (a pin, an edit, a group renamed…), in order: an answer
   * the server read before one of them would otherwise undo it until the next fetch.
   */
  changesSinceFetch: ListChangeEvent[];
}

/** The events the list applies in place (conversation-list.ts `listAfter`). */
export type ListChangeEvent = Extract<
  ChatsEvent,
  {
    type:
      | 'chats.messageEdited'
      | 'chats.presence'
      | 'chats.profile'
      | 'chats.conversationAdded'
      | 'chats.conversationUpdated'
      | 'chats.settings'
      | 'chats.conversationRemoved'
      | 'chats.groupCall';
  }
>;

/** A message the list took from a socket event or a delivery, and whether it counted as unread (and mentioned me). */
export interface ArrivedMessage {
  message: Message;
  unread: boolean;
  mentioned: boolean;
}

export type ChatsEvent =
  | { type: 'chats.signedIn'; userId: string }
  | { type: 'chats.signedOut' }
  /**
   * Open a conversation; with messageId, at that message (a search result); `again` opens the open one afresh
   * (its history was cleared).
   */
  | {
      type: 'chats.open';
      conversationId: string;
      messageId?: string;
      again?: boolean;
      /** The opener knows it is a secret chat (it just made it): sealed from the first message, list or not. */
      secret?: true;
    }
  | { type: 'chats.close' }
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
  /** A group's members, roles, title or picture changed (conversation:updated). */
  | { type: 'chats.conversationUpdated'; conversation: Conversation }
  /** The user's own settings of a conversation changed (conversation:settings). */
  | { type: 'chats.settings'; conversationId: string; settings: ChatSettings }
  /** The user lost the conversation: left, was removed, or the group ended (conversation:removed). */
  | { type: 'chats.conversationRemoved'; conversationId: string }
  /** Who is in a group's call now, none when it ended (groupCall:state): the tile's marker and the call bar. */
  | { type: 'chats.groupCall'; conversationId: string; call: { participantIds: string[]; video: boolean } | null }
  /** The composer's delivery (its emitted event): an own message the server has. */
  | Extract<ComposerEmitted, { type: 'composer.delivered' }>;

/**
 * A message from someone else counted as unread (its conversation was not in front of the user), once per message,
 * with its conversation as the list knows it (null when the list does not know it yet).
 */
export type ChatsEmitted =
  | { type: 'chats.unread'; message: Message; conversation: Conversation | null }
  /**
   * A conversation was opened (or chosen again) or closed (null), and whether it is a secret chat: the address
   * follows (the navigation actor), and the composer.
   */
  | {
      type: 'chats.selected';
      conversationId: string | null;
      /** null: not known yet (the list is still loading): nothing may be sent there until it is. */
      secret: boolean | null;
    }
  /** The chats the list knows as secret, whenever the list is fetched or they change (the composer's outbox). */
  | { type: 'chats.secretChats'; conversationIds: string[] };

export type ChatsRef = MachineRef<ChatsContext, ChatsEvent, ChatsEmitted, { loader?: ConversationLoaderRef }>;

/** The selected conversation's loader (its child while the chats actor runs). */
export const conversationLoaderOf = (s: SnapshotOf<ChatsRef> | undefined) => s?.children.loader;

/** The list as fetched: from the server, or (`saved`) what the browser kept when the server did not answer. */
export type ListAnswer = ResponseOf<'conversations'> & { saved?: boolean };

/** The machine's port: the effects it leaves to its feature's services (src/services/chats/chats.effects.ts). */
export interface ChatsEffects {
  /** The list from the server, or (no answer) the one the browser kept, marked `saved`. */
  fetchConversations: PromiseActorLogic<ListAnswer, unknown>;
  markRead: PromiseActorLogic<unknown, { conversationId: string }>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    chats: ChatsRef;
  }
}

// --- The narrow doors: what other features may do with the chats actor, without holding it ---

/** What other features ask of the chats actor. */
export type ChatsCommand = Extract<ChatsEvent, { type: 'chats.open' | 'chats.close' | 'chats.refresh' | 'chats.call' }>;

/** The list as other features read it: data only. */
export type ChatList = Pick<ChatsContext, 'me' | 'entries' | 'selectedId'>;

const chatsOf = (system: AnySystem) => systemActor(system, 'chats');

/** Where commands go (for `sendTo`); undefined when the chats actor is not running (isolated tests). */
export const chatsInbox = (system: AnySystem): ActorRef<Snapshot<unknown>, ChatsCommand> | undefined => chatsOf(system);

/** Hears one of the chats actor's emitted events; returns the unsubscribe. */
export function onChats<T extends ChatsEmitted['type']>(
  system: AnySystem,
  type: T,
  handler: (event: Extract<ChatsEmitted, { type: T }>) => void,
): () => void {
  // xstate types `on`'s handler by the emitted union: narrowed to the one type asked for.
  const sub = chatsOf(system)?.on(type, handler as (event: ChatsEmitted) => void);
  return () => sub?.unsubscribe();
}

/** The list now; null when the chats actor is not running. */
export function chatList(system: AnySystem): ChatList | null {
  const context = chatsOf(system)?.getSnapshot().context;
  return context ? { me: context.me, entries: context.entries, selectedId: context.selectedId } : null;
}

/** The list now and on every change; returns the unsubscribe (nothing happens without the chats actor). */
export function watchChatList(system: AnySystem, listener: (list: ChatList) => void): () => void {
  const chats = chatsOf(system);
  if (!chats) return () => {};
  const report = () => {
    const { me, entries, selectedId } = chats.getSnapshot().context;
    listener({ me, entries, selectedId });
  };
  report();
  const sub = chats.subscribe(report);
  return () => sub.unsubscribe();
}

/** Whether the list knows this conversation as a secret chat. */
export const isSecretChat = (list: ChatList | null, conversationId: string): boolean =>
  list?.entries.some((e) => e.conversation.id === conversationId && e.conversation.secret) ?? false;

/** The list before it is fetched, nothing selected. */
export const initialChatsContext = (): ChatsContext => ({
  me: null,
  entries: [],
  selectedId: null,
  openAt: null,
  loaded: false,
  pageVisible: true,
  viewing: false,
  recentIds: [],
  openedUnread: 0,
  sinceFetch: [],
  changesSinceFetch: [],
});
