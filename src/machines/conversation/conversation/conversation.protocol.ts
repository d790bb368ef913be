// The conversation actor's protocol (the chats actor's child 'conversation', one per open conversation): its input,
// the events it accepts (server events, the composer's deliveries through the chats actor, the view's requests,
// its children's reports), what it emits for the view, and its children (the pin bar's state is its child 'pins').
// Peers and views import this module, never conversation.machine.ts.
import type { ResponseOf } from '../../../contract/api';
import type { LinkPreview, Message, PollInfo, Reaction, TextEntity, ThreadSummary } from '../../../contract/entities';
import type { RequestQueueRef, RequestQueueReport } from '../../realtime/requestQueue/requestQueue.protocol';
import type { MachineRef, SnapshotOf } from '../../shared/machine-ref';
import type { MessageEditParentEvent, MessageEditRef } from '../messageEdit/messageEdit.protocol';
import type { PageBackParentEvent, PageBackRef, PageInput } from '../pageBack/pageBack.protocol';
import type { PinsParentEvent, PinsRef } from '../pins/pins.protocol';
import { type PreviewCardRef, previewCardId } from '../previewCard/previewCard.protocol';
import type { ReadReceiptsRef } from '../readReceipts/readReceipts.protocol';
import type { TypingRef } from '../typing/typing.protocol';
import type { AnyStateMachine, PromiseActorLogic } from 'xstate';

export interface ConversationInput {
  conversationId: string;
  userId: string;
  /** The conversation's unread count when it was opened (the list's badge): where «Непрочитанные сообщения» goes. */
  unread?: number;
  /** A message to open the conversation at (a search result): paged back to and highlighted once loaded. */
  jumpTo?: string | null;
}

/** An own message to delete on the server (the child queue 'deletions' sends them one after another). */
export interface DeletionRequest {
  messageId: string;
}

/** A reaction change waiting for the server (the child queue 'reactions' sends them one after another). */
export interface ReactionChange {
  messageId: string;
  emoji: string;
  on: boolean;
}

export type { PageInput } from '../pageBack/pageBack.protocol';
export type { PinChange } from '../pins/pins.protocol';

export interface ConversationContext {
  conversationId: string;
  me: string;
  /** Ascending by time, deleted ones removed. */
  messages: Message[];
  /** Older messages exist on the server. */
  hasMore: boolean;
  /** The message list's index of the first message: lowered by the number of messages each older page adds. */
  firstItemIndex: number;
  /** A quoted message being looked for in older pages. */
  seekId: string | null;
  /** Unread messages at opening not yet placed: the divider goes above the first of them once the page is in. */
  unreadAtOpen: number;
  /** The first message that was unread when the conversation opened (the divider is above it); null: none. */
  unreadFrom: string | null;
  /**
   * The timeline's message that keyboard focus is on (or returns to): the one message of the roving tabindex,
   * kept here rather than in the DOM because the virtualized list unmounts rows out of view. Null: none yet (the
   * newest is the timeline's tab stop).
   */
  focusedId: string | null;
}

/** Where ↑, ↓, Home and End move the timeline's focus (docs/behaviour.md §10.48). */
export type FocusMove = 'previous' | 'next' | 'first' | 'last';

export type ConversationEvent =
  | { type: 'conversation.messageArrived'; message: Message }
  | { type: 'conversation.messageSent'; message: Message }
  | {
      type: 'conversation.messageDeleted';
      conversationId: string;
      messageId: string;
      /** A thread reply's deletion: its root and the root's summary as it is now. */
      thread?: { rootId: string; summary: ThreadSummary };
    }
  | {
      type: 'conversation.messageEdited';
      conversationId: string;
      messageId: string;
      content: string;
      editedAt: string;
      mentions?: string[];
      /** The new text's formatting (absent: plain). */
      entities?: TextEntity[];
    }
  /** The user hid messages for themselves (another tab, device or this one), or showed them again. */
  | { type: 'conversation.messagesHidden'; conversationId: string; messageIds: string[]; hidden: boolean }
  /** The server's pins (forwarded to the child 'pins'). */
  | { type: 'conversation.pins'; conversationId: string; pins: Message[] }
  /** «Закрепить» (`on`) or «Открепить» (forwarded to the child 'pins'). */
  | { type: 'conversation.pin'; messageId: string; on: boolean }
  /** The pin bar was clicked: jump to the pin it shows, and show the next older one (the child 'pins' says which). */
  | { type: 'conversation.pinJump' }
  | PinsParentEvent
  | PageBackParentEvent
  | { type: 'conversation.reactions'; conversationId: string; messageId: string; reactions: Reaction[] }
  /** A message's link card arrived or was removed (null); its child 'previewCard:<id>' follows. */
  | { type: 'conversation.preview'; conversationId: string; messageId: string; preview: LinkPreview | null }
  /** A reply in the thread of one of its messages: the root shows the new «N ответов». */
  | { type: 'conversation.thread'; conversationId: string; rootId: string; thread: ThreadSummary }
  /** A poll's votes changed or it closed (poll:updated, or the answer to the user's own vote). */
  | { type: 'conversation.poll'; conversationId: string; messageId: string; poll: PollInfo }
  /** Gives or takes back the user's own reaction (whichever it is not now). */
  | { type: 'conversation.react'; messageId: string; emoji: string }
  | MessageEditParentEvent
  | RequestQueueReport<'deletions', DeletionRequest, unknown>
  | RequestQueueReport<'reactions', ReactionChange, ResponseOf<'react'>>
  | { type: 'conversation.receipts'; conversationId: string; userId: string; messageIds: string[] }
  | { type: 'conversation.loadOlder' }
  | { type: 'conversation.jumpTo'; messageId: string }
  | { type: 'conversation.delete'; messageId: string }
  | { type: 'conversation.refresh' }
  | { type: 'conversation.reconnected' }
  | { type: 'conversation.retry' }
  /** The user submitted a message here (from the composer, through the chats actor): emits `conversation.toBottom`. */
  | { type: 'conversation.ownSent' }
  /** The view opens an image of a message in the lightbox (emitted back as `conversation.imageOpened`). */
  | { type: 'conversation.openImage'; messageId: string; index: number }
  | { type: 'conversation.closeImage' }
  /** A message of the timeline got focus (a click, Tab, or the move below landing on it). */
  | { type: 'conversation.focusMessage'; messageId: string }
  /**
   * ↑/↓/Home/End on a focused message: `ids` are the timeline's rows as drawn, oldest first (pending ones too); the
   * machine picks the next focused one and emits `conversation.focusMoved` for the view to scroll to and focus.
   */
  | { type: 'conversation.moveFocus'; move: FocusMove; ids: string[] };

/**
 * For the view only (nothing of it is kept in the context; the view hooks listen with `actorRef.on`):
 * - `conversation.scrollTo`: a jump to a quote or a search result found; scroll it into view and flash it, on
 *   every jump (also a second one to the same message);
 * - `conversation.toBottom`: the user sent a message here; go to the bottom, whatever the distance;
 * - `conversation.imageOpened` / `conversation.imageClosed`: the image shown in the lightbox (a message and the
 *   index of the image in it), or none;
 * - `conversation.focusMoved`: the keyboard moved the timeline's focus to this message; bring it into view and focus it.
 */
export type ConversationEmitted =
  | { type: 'conversation.scrollTo'; messageId: string }
  | { type: 'conversation.focusMoved'; messageId: string }
  | { type: 'conversation.toBottom' }
  | { type: 'conversation.imageOpened'; messageId: string; index: number }
  | { type: 'conversation.imageClosed' };

export type ConversationRef = MachineRef<
  ConversationContext,
  ConversationEvent,
  ConversationEmitted,
  {
    typing?: TypingRef;
    readReceipts?: ReadReceiptsRef;
    messageEdit?: MessageEditRef;
    deletions?: RequestQueueRef<DeletionRequest>;
    reactions?: RequestQueueRef<ReactionChange>;
    pins?: PinsRef;
    pageBack?: PageBackRef;
    /** One per message with a link card (previewCardId). */
    [card: `previewCard:${string}`]: PreviewCardRef | undefined;
  }
>;

/** The conversation's parts that views draw from (its children while it runs). */
export type ConversationPart = 'pins' | 'typing' | 'readReceipts' | 'messageEdit';
type ConversationChildren = SnapshotOf<ConversationRef>['children'];

/** One part's actor: `useSelector(conversation, conversationPartOf('pins'))`. */
export const conversationPartOf =
  <K extends ConversationPart>(part: K) =>
  (s: SnapshotOf<ConversationRef> | undefined): ConversationChildren[K] =>
    s?.children[part];

/** A message's link card, while the message has one. */
export const previewCardOf =
  (messageId: string) =>
  (s: SnapshotOf<ConversationRef> | undefined): PreviewCardRef | undefined =>
    s?.children[previewCardId(messageId)];

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/conversation/conversation.effects.ts).
 */
export interface ConversationEffects {
  fetchPage: PromiseActorLogic<ResponseOf<'messages'>, PageInput>;
  // Its children, each provided with the effects of its own port (PageBackEffects, RequestQueueEffects, …).
  pageBack: AnyStateMachine;
  deletions: AnyStateMachine;
  reactions: AnyStateMachine;
  pins: AnyStateMachine;
  previewCard: AnyStateMachine;
  messageEdit: AnyStateMachine;
  readReceipts: AnyStateMachine;
}
