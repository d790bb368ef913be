// The composer actor's protocol (the chats actor's child 'composer', one per signed-in user): its input, the events
// it accepts (the view's input, its recorder's and its outbox's reports), the events it sends its parent and its
// children. Peers and views import this module, never composer.machine.ts.
import type { EventObject } from 'xstate';
import type { Message } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { OutboxParentEvent, OutboxRef } from '../outbox/outbox.protocol';
import type { RecorderParentEvent, RecorderRef } from '../recorder/recorder.protocol';
import type { Draft, DraftsParentEvent, ReplyTarget } from '../drafts/drafts.protocol';

export type { Draft, ReplyTarget } from '../drafts/drafts.protocol';

export interface ComposerInput {
  userId: string;
  /** Prefix of the outbox's clientMessageIds (random per start; fixed in tests). */
  tag: string;
}

export interface ComposerContext {
  /** Whose outbox its child keeps, and the prefix of its clientMessageIds. */
  userId: string;
  tag: string;
  conversationId: string | null;
  text: string;
  replyTo: ReplyTarget | null;
  /** Drafts of the conversations not in front. */
  drafts: Record<string, Draft>;
}

export type ComposerEvent =
  | { type: 'composer.focusConversation'; conversationId: string | null }
  | { type: 'composer.input'; text: string }
  | { type: 'composer.reply'; messageId: string; content: string }
  | { type: 'composer.clearReply' }
  /** `mentions`: the members the text mentions, by id. */
  | { type: 'composer.submit'; at: string; mentions?: string[] }
  | { type: 'composer.attach'; files: (Blob & { name?: string })[]; at: string; caption?: string }
  /** A text for a given conversation that leaves the composer's text and drafts alone (the call's chat panel). */
  | { type: 'composer.sendText'; conversationId: string; text: string; at: string }
  /** Its recorder child (src/machines/composer/recorder) finished a voice message: it goes into the outbox. */
  | RecorderParentEvent
  /** Its outbox child delivered a message: passed on to the parent as `composer.delivered`. */
  | OutboxParentEvent
  /** Its drafts child read the drafts kept in the browser. */
  | DraftsParentEvent;

/** What the composer tells its parent (the chats actor). */
export type ComposerParentEvent =
  /** A message was submitted in this conversation (the view goes to the bottom). */
  | { type: 'composer.sent'; conversationId: string }
  /** The server has an own message; `refresh` after a file send (docs/behaviour.md §4). */
  | { type: 'composer.delivered'; message: Message; refresh: boolean };

/** Its children views reach: the voice recorder, and the outbox (its items, retry and remove). */
export interface ComposerChildren {
  recorder?: RecorderRef;
  outbox?: OutboxRef;
}

export type ComposerRef = MachineRef<ComposerContext, ComposerEvent, EventObject, ComposerChildren>;
