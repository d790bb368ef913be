// The composer actor's protocol (session-long, systemId 'composer'): its input, the events it accepts (the view's
// input, the chats actor's selections, its recorder's and its outbox's reports), the events it emits (heard by the
// chats list and the open conversation) and its children. Peers and views import this module, never
// composer.machine.ts.
import type { AnyStateMachine } from 'xstate';
import type { Message } from '../../../contract/entities';
import type { MessageEntity } from '../../../contract/message-entities';
import type { SecretDeviceRef } from '../../secretChats/secretDevice/secretDevice.protocol';
import type { MachineRef, SnapshotOf } from '../../shared/machine-ref';
import type { Draft, DraftsParentEvent, ReplyTarget } from '../drafts/drafts.protocol';
import type { OutboxParentEvent, OutboxPart, OutboxRef } from '../outbox/outbox.protocol';
import type { RecorderParentEvent, RecorderRef } from '../recorder/recorder.protocol';

export type { Draft, ReplyTarget } from '../drafts/drafts.protocol';

export interface ComposerInput {
  /** Prefix of the outbox's clientMessageIds (random per sign-in without one; fixed in tests). */
  tag?: string;
}

export interface ComposerContext {
  fixedTag: string | null;
  /** Whose outbox its child keeps, and the prefix of its clientMessageIds (null while signed out). */
  userId: string | null;
  tag: string | null;
  conversationId: string | null;
  /**
   * The conversation in front is a secret chat (as its entry in the chats list says); null while that is not known
   * (the list is loading): nothing is handed to the outbox then, so nothing can take a plaintext route.
   */
  secret: boolean | null;
  text: string;
  replyTo: ReplyTarget | null;
  /** Drafts of the conversations not in front. */
  drafts: Record<string, Draft>;
  /** This browser's secret chat device while it runs (it says so itself): its outbox hands secret texts to it. */
  device: SecretDeviceRef | null;
}

export type ComposerEvent =
  | { type: 'composer.signedIn'; userId: string }
  | { type: 'composer.signedOut' }
  | { type: 'composer.focusConversation'; conversationId: string | null; secret?: boolean | null }
  | { type: 'composer.input'; text: string }
  | { type: 'composer.reply'; messageId: string; content: string }
  | { type: 'composer.clearReply' }
  /**
   * `mentions`: the members the text mentions, by id. `formatted`: the trimmed text with its markers read as
   * formatting (src/contract/text-markup.ts), sent instead of the text as typed.
   */
  | {
      type: 'composer.submit';
      at: string;
      mentions?: string[];
      formatted?: { text: string; entities: MessageEntity[] };
    }
  | { type: 'composer.attach'; files: (Blob & { name?: string })[]; at: string; caption?: string }
  /** A text for a given conversation that leaves the composer's text and drafts alone (the call's chat panel). */
  | { type: 'composer.sendText'; conversationId: string; text: string; at: string; secret?: boolean }
  /**
   * A reply in a thread (the thread panel's composer): it goes through the same outbox, one clientMessageId per
   * reply, kept and retried like any message.
   */
  | { type: 'composer.threadReply'; conversationId: string; rootId: string; part: ThreadReplyPart; at: string }
  /** The thread panel's unsent text and quote, kept with the drafts (under `threadDraftKey`) across reloads. */
  | { type: 'composer.threadDraft'; rootId: string; draft: Draft }
  /** The chats the list knows as secret (the chats actor's emitted `chats.secretChats`), for the outbox. */
  | { type: 'composer.secretChats'; conversationIds: string[] }
  /** This browser's secret chat device started, or stopped: told by the device itself. */
  | { type: 'composer.secretDevice'; device: SecretDeviceRef }
  | { type: 'composer.secretDeviceGone'; device: SecretDeviceRef }
  /** Its recorder child (src/machines/composer/recorder) finished a voice message: it goes into the outbox. */
  | RecorderParentEvent
  /** Its outbox child delivered a message: emitted as `composer.delivered`. */
  | OutboxParentEvent
  /** Its drafts child read the drafts kept in the browser. */
  | DraftsParentEvent;

/** Where a thread's draft is kept among the conversations' drafts (no conversation id looks like it). */
export const threadDraftKey = (rootId: string) => `thread:${rootId}`;

/** What a thread reply carries: a text (with its quote and mentions) or files (with their caption, quote, mentions). */
export type ThreadReplyPart = Extract<OutboxPart, { kind: 'text' | 'files' }>;

/** What the composer emits (whoever cares subscribes: the chats list, the open conversation). */
export type ComposerEmitted =
  /** A message was submitted in this conversation (the view goes to the bottom). */
  | { type: 'composer.sent'; conversationId: string }
  /** The server has an own message; `refresh` after a file send (docs/behaviour.md §4). */
  | { type: 'composer.delivered'; message: Message; refresh: boolean };

/** Its children views reach: the voice recorder, and the outbox (its items, retry and remove). */
export interface ComposerChildren {
  recorder?: RecorderRef;
  outbox?: OutboxRef;
}

export type ComposerRef = MachineRef<ComposerContext, ComposerEvent, ComposerEmitted, ComposerChildren>;

/** The outbox: the messages on their way, for the conversation's and a call chat's views. */
export const outboxOf = (s: SnapshotOf<ComposerRef> | undefined) => s?.children.outbox;
/** The voice recorder. */
export const recorderOf = (s: SnapshotOf<ComposerRef> | undefined) => s?.children.recorder;

/**
 * The machine's port: its children, each provided with the effects of its own port (RecorderEffects, OutboxEffects,
 * DraftsEffects) by its feature's services (src/services/composer/composer.effects.ts).
 */
export interface ComposerEffects {
  recorder: AnyStateMachine;
  outbox: AnyStateMachine;
  drafts: AnyStateMachine;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    composer: ComposerRef;
  }
}
