// A thread's panel («Обсуждение»; systemId 'threadPanel', alive while the panel is open): the root, its replies
// paged back like the history, its own composer, and following. Views import this module, never
// threadPanel.machine.ts.
import type { AttachmentType, Message, ThreadSummary } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';

export const THREAD_LOAD_FAILED = 'Не удалось загрузить обсуждение';
export const THREAD_SEND_FAILED = 'Не удалось отправить ответ. Попробуйте ещё раз.';
export const THREAD_ACTION_FAILED = 'Не удалось выполнить действие. Попробуйте ещё раз.';
/** An upload that failed without the server saying why (as a failed file in the timeline). */
export const THREAD_UPLOAD_FAILED = 'Файл не загрузился';

/** A file picked in the panel's composer (its bytes until they are uploaded). */
export type ThreadFile = Blob & { name?: string };
/** An uploaded file as the send takes it. */
export interface ThreadUpload {
  url: string;
  type: AttachmentType;
}

export interface ThreadPanelInput {
  conversationId: string;
  rootId: string;
}

export interface ThreadPanelContext {
  conversationId: string;
  rootId: string;
  root: Message | null;
  /** Oldest first. */
  replies: Message[];
  hasMore: boolean;
  following: boolean;
  /** The panel composer's text. */
  draft: string;
  /** Files to send with the next reply (the text is their caption). */
  files: ThreadFile[];
  /** The same files once uploaded (a failed send is tried again without uploading them again). */
  uploaded: ThreadUpload[];
  /** Upload progress of the files, 0–100; null when nothing uploads. */
  progress: number | null;
  /** The reply of this thread the next reply quotes. */
  quote: string | null;
  /** The members the reply being sent mentions. */
  mentions: string[];
  /** The server's largest upload; null until it is known (the server refuses a larger file with the same words). */
  uploadLimitBytes: number | null;
  error: string | null;
}

/** What the send of a reply carries besides the text: the members it mentions, its files, the reply it quotes. */
export interface ThreadSend {
  conversationId: string;
  rootId: string;
  content: string;
  mentions: string[];
  attachments: ThreadUpload[];
  replyToId: string | null;
}

export type ThreadPanelEvent =
  | { type: 'thread.more' }
  | { type: 'thread.input'; text: string }
  | { type: 'thread.send'; mentions?: string[] }
  | { type: 'thread.attach'; files: ThreadFile[] }
  | { type: 'thread.detach'; index: number }
  /** «Ответить» on a reply of this thread; null drops the quote. */
  | { type: 'thread.quote'; messageId: string | null }
  /** From the upload: progress, the uploaded files, or why it failed. */
  | { type: 'thread.uploadProgress'; percent: number }
  | { type: 'thread.uploaded'; attachments: ThreadUpload[] }
  | { type: 'thread.uploadFailed'; message: string }
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
  sending: 'sending',
  uploading: 'uploading',
  busy: 'busy',
  failed: 'failed',
} as const;

export type ThreadPanelRef = MachineRef<ThreadPanelContext, ThreadPanelEvent, ThreadPanelEmitted>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** The open thread's panel (spawned while it is shown). */
    threadPanel: ThreadPanelRef;
  }
}
