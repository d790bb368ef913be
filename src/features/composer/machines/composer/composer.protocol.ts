// The composer actor's protocol (the chats actor's child 'composer', one per signed-in user): its input, the events
// it accepts (the view's input, its upload actor's reports), and the events it sends its parent. Peers and views
// import this module, never composer.machine.ts.
import type { EventObject } from 'xstate';
import type { Attachment, Message } from '../../../../contract/entities';
import type { MachineRef } from '../../../../core/machines/machine-ref';
import type { RecorderParentEvent, RecorderRef } from '../recorder/recorder.protocol';
import type { OutboxItem } from './outbox';

export interface ComposerInput {
  userId: string;
  /** Prefix of this composer's clientMessageIds (random per start; fixed in tests). */
  tag: string;
}

export interface ReplyTarget {
  id: string;
  content: string;
}

/** A conversation's unsent text and reply, kept while another conversation is in front. */
export interface Draft {
  text: string;
  replyTo: ReplyTarget | null;
}

export interface ComposerContext {
  userId: string;
  tag: string;
  /** Messages created by this composer so far (the clientMessageId counter). */
  seq: number;
  conversationId: string | null;
  text: string;
  replyTo: ReplyTarget | null;
  /** Drafts of the conversations not in front. */
  drafts: Record<string, Draft>;
  outbox: OutboxItem[];
  /** The item being uploaded or sent. */
  activeId: string | null;
}

export type UploadReport =
  | { type: 'upload.progress'; percent: number }
  | { type: 'upload.done'; attachment: Attachment }
  | { type: 'upload.failed'; message: string };

export type ComposerEvent =
  | { type: 'composer.focusConversation'; conversationId: string | null }
  | { type: 'composer.input'; text: string }
  | { type: 'composer.reply'; messageId: string; content: string }
  | { type: 'composer.clearReply' }
  | { type: 'composer.submit'; at: string }
  | { type: 'composer.attach'; files: (Blob & { name?: string })[]; at: string }
  /** A text for a given conversation that leaves the composer's text and drafts alone (the call's chat panel). */
  | { type: 'composer.sendText'; conversationId: string; text: string; at: string }
  | { type: 'composer.retry'; id: string }
  | { type: 'composer.remove'; id: string }
  | { type: 'composer.reconnected' }
  | UploadReport
  /** Its recorder child (src/features/composer/machines/recorder) finished a voice message: it goes into the outbox. */
  | RecorderParentEvent;

/** What the composer tells its parent (the chats actor). */
export type ComposerParentEvent =
  /** A message was submitted in this conversation (the view goes to the bottom). */
  | { type: 'composer.sent'; conversationId: string }
  /** The server has an own message; `refresh` after a file send (docs/behaviour.md §4). */
  | { type: 'composer.delivered'; message: Message; refresh: boolean };

/** What the outbox store is told: the items to keep (without file bytes). */
export type OutboxStoreCommand = { type: 'outbox.save'; items: OutboxItem[] };

/** Its children views reach: the voice recorder. */
export interface ComposerChildren {
  recorder?: RecorderRef;
}

export type ComposerRef = MachineRef<ComposerContext, ComposerEvent, EventObject, ComposerChildren>;
