// The conversation actor's protocol (the chats actor's child 'conversation', one per open conversation): its input,
// the events it accepts (server events, the composer's deliveries through the chats actor, the view's requests),
// what it emits, and its children. Peers and views import this module, never conversation.machine.ts.
import type { Message, Reaction } from '../../../../contract/entities';
import type { ReactionSymbol } from '../../../../contract/limits';
import type { MachineRef } from '../../../../core/machines/machine-ref';
import type { MessageEditParentEvent, MessageEditRef } from '../messageEdit/messageEdit.protocol';
import type { ReadReceiptsRef } from '../readReceipts/readReceipts.protocol';
import type { TypingRef } from '../typing/typing.protocol';

export interface ConversationInput {
  conversationId: string;
  userId: string;
  /** The conversation's unread count when it was opened (the list's badge): where «Непрочитанные сообщения» goes. */
  unread?: number;
  /** A message to open the conversation at (a search result): paged back to and highlighted once loaded. */
  jumpTo?: string | null;
}

/** A reaction change waiting for the server. */
export interface ReactionChange {
  messageId: string;
  emoji: ReactionSymbol;
  on: boolean;
}

export interface ConversationContext {
  conversationId: string;
  me: string;
  /** Ascending by time, deleted ones removed. */
  messages: Message[];
  /** Older messages exist on the server. */
  hasMore: boolean;
  /** The message list's index of the first message: lowered by the number of messages each older page adds. */
  firstItemIndex: number;
  /** The quoted message last jumped to, highlighted (each jump also emits `conversation.scrollTo`). */
  highlightId: string | null;
  /** Jumps so far: the view scrolls again on every jump, also a second one to the same message. */
  jumps: number;
  /** Own messages submitted here so far: the view goes to the bottom on every one. */
  ownSends: number;
  /** The image open in the lightbox: a message and the index of the image in it. */
  viewer: { messageId: string; index: number } | null;
  /** A quoted message being looked for in older pages. */
  seekId: string | null;
  /** Deletions waiting for the server, in order. */
  deleteQueue: string[];
  /** Reaction changes waiting for the server, in order (already shown). */
  reactQueue: ReactionChange[];
  /** Unread messages at opening not yet placed: the divider goes above the first of them once the page is in. */
  unreadAtOpen: number;
  /** The first message that was unread when the conversation opened (the divider is above it); null: none. */
  unreadFrom: string | null;
}

export type ConversationEvent =
  | { type: 'conversation.messageArrived'; message: Message }
  | { type: 'conversation.messageSent'; message: Message }
  | { type: 'conversation.messageDeleted'; conversationId: string; messageId: string }
  | { type: 'conversation.messageEdited'; conversationId: string; messageId: string; content: string; editedAt: string }
  | { type: 'conversation.reactions'; conversationId: string; messageId: string; reactions: Reaction[] }
  /** Gives or takes back the user's own reaction (whichever it is not now). */
  | { type: 'conversation.react'; messageId: string; emoji: ReactionSymbol }
  | MessageEditParentEvent
  | { type: 'conversation.receipts'; conversationId: string; userId: string; messageIds: string[] }
  | { type: 'conversation.loadOlder' }
  | { type: 'conversation.jumpTo'; messageId: string }
  | { type: 'conversation.delete'; messageId: string }
  | { type: 'conversation.refresh' }
  | { type: 'conversation.reconnected' }
  | { type: 'conversation.retry' }
  /** The user submitted a message here (from the composer, through the chats actor). */
  | { type: 'conversation.ownSent' }
  | { type: 'conversation.openImage'; messageId: string; index: number }
  | { type: 'conversation.closeImage' };

/** For the view: scroll this message into view (a jump to a quote). */
export type ConversationEmitted = { type: 'conversation.scrollTo'; messageId: string };

export type PageInput = { conversationId: string; before?: string; limit: number };

export type ConversationRef = MachineRef<
  ConversationContext,
  ConversationEvent,
  ConversationEmitted,
  { typing?: TypingRef; readReceipts?: ReadReceiptsRef; messageEdit?: MessageEditRef }
>;
