// A thread's panel («Обсуждение»; registry line 'threadPanel', alive while the panel is open): the root, its replies
// paged back like the history, its own composer, and following. Views import this module, never
// threadPanel.machine.ts.
import type { Message, ThreadSummary } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { ResponseOf } from '../../../contract/api';
import type { PromiseActorLogic } from 'xstate';

export const THREAD_LOAD_FAILED = 'Не удалось загрузить обсуждение';
export const THREAD_ACTION_FAILED = 'Не удалось выполнить действие. Попробуйте ещё раз.';

/** A file picked in the panel's composer. */
export type ThreadFile = Blob & { name?: string };

export interface ThreadPanelInput {
  conversationId: string;
  rootId: string;
  /** The draft kept from an earlier visit (the composer's drafts): its text, and the id of the reply it quotes. */
  draft?: { text: string; quote: string | null };
}

export interface ThreadPanelContext {
  conversationId: string;
  rootId: string;
  root: Message | null;
  /** Oldest first. */
  replies: Message[];
  hasMore: boolean;
  following: boolean;
  /** The panel composer's text (a reply being sent waits in the composer's outbox, not here). */
  draft: string;
  /** The reply of this thread the next reply quotes. */
  quote: string | null;
  error: string | null;
}

export type ThreadPanelEvent =
  | { type: 'thread.more' }
  | { type: 'thread.input'; text: string }
  /** «Отправить»: the text goes, quoting the chosen reply; `mentions`: the members it names, by id. */
  | { type: 'thread.send'; at: string; mentions?: string[] }
  /** Files picked, pasted or dropped (with the send preview's caption): they go at once, as in the timeline. */
  | { type: 'thread.attach'; files: ThreadFile[]; at: string; caption?: string; mentions?: string[] }
  /** «Ответить» on a reply of this thread; null drops the quote. */
  | { type: 'thread.quote'; messageId: string | null }
  /** The composer delivered an own reply (its emitted `composer.delivered`). */
  | { type: 'thread.sent'; message: Message }
  | { type: 'thread.follow'; follow: boolean }
  /** A reply arrived (thread:reply) with the root's summary as it is now. */
  | { type: 'thread.reply'; message: Message; thread: ThreadSummary }
  /**
   * A message was deleted for everyone (message:deleted): a reply of this thread leaves the panel; a reply's
   * deletion carries its root and the root's summary as it is now.
   */
  | { type: 'thread.deleted'; messageId: string; rootId?: string; thread?: ThreadSummary }
  | { type: 'thread.retry' }
  | { type: 'thread.close' };

/** The panel was closed (its owner unmounts it). */
export type ThreadPanelEmitted = { type: 'thread.closed'; rootId: string };

/** Tags the view asks. */
export const THREAD_TAGS = {
  loading: 'loading',
  shown: 'shown',
  loadingMore: 'loadingMore',
  busy: 'busy',
  failed: 'failed',
} as const;

export type ThreadPanelRef = MachineRef<ThreadPanelContext, ThreadPanelEvent, ThreadPanelEmitted>;

/** The machine's port: the effects it leaves to its feature's services (src/services/threads/threads.effects.ts). */
export interface ThreadPanelEffects {
  load: PromiseActorLogic<ResponseOf<'thread'>, { rootId: string; before?: string }>;
  follow: PromiseActorLogic<ResponseOf<'followThread'>, { rootId: string; follow: boolean }>;
  markRead: PromiseActorLogic<unknown, { rootId: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The open thread's panel (spawned while it is shown). */
    threadPanel: ThreadPanelRef;
  }
}
