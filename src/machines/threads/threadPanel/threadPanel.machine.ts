// The thread panel's actor (protocol: threadPanel.protocol.ts). Loads the root and the newest replies, pages back
// on request, sends one reply at a time from its own composer (text, files uploaded first with their progress, a
// quote of a reply of the same thread), follows and unfollows, and takes the replies the server announces
// (thread:reply) whatever it is doing. Each time it shows the newest replies it marks the thread read (the
// followers' «Обсуждения» count).
import { assign, emit, setup } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import type { Message, ThreadSummary } from '../../../contract/entities';
import { failureMessage } from '../../../contract/failure';
import { fileTooLargeText, LIMITS } from '../../../contract/limits';
import { listenToServer } from '../../realtime/index';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import {
  THREAD_ACTION_FAILED,
  THREAD_LOAD_FAILED,
  THREAD_SEND_FAILED,
  THREAD_TAGS,
  type ThreadFile,
  type ThreadPanelContext,
  type ThreadPanelEmitted,
  type ThreadPanelEvent,
  type ThreadPanelInput,
  type ThreadSend,
} from './threadPanel.protocol';

export * from './threadPanel.protocol';

export const threadServerEvents = listenToServer<ThreadPanelEvent>(
  {
    'thread:reply': (p) => ({ type: 'thread.reply', message: p.message, thread: p.thread }),
    'message:deleted': (p) => ({
      type: 'thread.deleted',
      messageId: p.messageId,
      ...(p.threadRootId && p.thread ? { rootId: p.threadRootId, thread: p.thread } : {}),
    }),
  },
  // Replies sent while the socket was down were missed: load the thread again.
  { onConnected: () => ({ type: 'thread.retry' }) },
);

/** The replies with these merged in (each id once, oldest first). */
function merged(replies: Message[], more: Message[]): Message[] {
  const byId = new Map(replies.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

const withSummary = (root: Message | null, thread: ThreadSummary): Message | null =>
  root ? { ...root, thread } : root;

/** The first picked file over the server's limit, if the limit is known. */
const tooLarge = (files: ThreadFile[], limit: number | null) => limit !== null && files.some((f) => f.size > limit);

/** What the composer sends: the trimmed text, its files (uploaded) and its quote. */
const sendOf = (context: ThreadPanelContext): ThreadSend => ({
  conversationId: context.conversationId,
  rootId: context.rootId,
  content: context.draft.trim(),
  mentions: context.mentions,
  attachments: context.uploaded,
  replyToId: context.quote,
});

export const threadPanelMachine = setup({
  types: {
    context: {} as ThreadPanelContext,
    events: {} as ThreadPanelEvent,
    emitted: {} as ThreadPanelEmitted,
    input: {} as ThreadPanelInput,
  },
  actors: {
    serverEvents: threadServerEvents,
    load: notWired<ResponseOf<'thread'>, { rootId: string; before?: string }>('threadPanel.load'),
    send: notWired<ResponseOf<'send'>, ThreadSend>('threadPanel.send'),
    follow: notWired<ResponseOf<'followThread'>, { rootId: string; follow: boolean }>('threadPanel.follow'),
    markRead: notWired<unknown, { rootId: string }>('threadPanel.markRead'),
    loadUploadLimit: notWired<number>('threadPanel.loadUploadLimit'),
    /** Uploads the files one after another: thread.uploadProgress, then thread.uploaded or thread.uploadFailed. */
    upload: notWiredCallback<{ type: string }, { files: ThreadFile[] }>('threadPanel.upload'),
  },
  guards: {
    ours: ({ context, event }) => event.type === 'thread.reply' && event.message.threadRootId === context.rootId,
    hasMore: ({ context }) => context.hasMore && context.replies.length > 0,
    shownHere: ({ context, event }) =>
      event.type === 'thread.deleted' &&
      (event.rootId === context.rootId || context.replies.some((m) => m.id === event.messageId)),
    typed: ({ context }) => context.draft.trim().length > 0 || context.files.length > 0,
    /** Files not uploaded yet (after a failed send they are: it is tried again with the same uploads). */
    needsUpload: ({ context }) => context.files.length > 0 && context.uploaded.length < context.files.length,
    tooLarge: ({ context, event }) => event.type === 'thread.attach' && tooLarge(event.files, context.uploadLimitBytes),
    /** A quote in a thread is of a reply of the same thread (the server refuses the root or anything else). */
    quotable: ({ context, event }) =>
      event.type === 'thread.quote' &&
      (event.messageId === null || context.replies.some((m) => m.id === event.messageId && !m.deletedAt)),
  },
  actions: {
    takeReply: assign(({ context, event }) => {
      if (event.type !== 'thread.reply') return {};
      return { replies: merged(context.replies, [event.message]), root: withSummary(context.root, event.thread) };
    }),
    takePage: assign((_, page: ResponseOf<'thread'>) => ({
      root: page.root,
      replies: page.messages,
      hasMore: page.hasMore,
      following: page.following,
      error: null,
    })),
    takeOlder: assign(({ context }, page: ResponseOf<'thread'>) => ({
      replies: merged(context.replies, page.messages),
      hasMore: page.hasMore,
    })),
    takeSent: assign(({ context }, { message }: ResponseOf<'send'>) => ({
      replies: merged(context.replies, [message]),
      draft: '',
      files: [],
      uploaded: [],
      progress: null,
      quote: null,
      // Writing in a thread follows it (the server did the same).
      following: true,
      error: null,
    })),
    fail: assign((_, error: string) => ({ error })),
    takeMentions: assign({ mentions: ({ event }) => (event.type === 'thread.send' ? (event.mentions ?? []) : []) }),
  },
}).createMachine({
  id: 'threadPanel',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    rootId: input.rootId,
    root: null,
    replies: [],
    hasMore: false,
    following: false,
    draft: '',
    files: [],
    uploaded: [],
    progress: null,
    quote: null,
    mentions: [],
    uploadLimitBytes: null,
    error: null,
  }),
  initial: 'open',
  states: {
    open: {
      invoke: [
        { id: 'serverEvents', src: 'serverEvents' },
        // The server's largest upload, asked once: a larger file is refused before it goes (else by the server).
        {
          id: 'loadUploadLimit',
          src: 'loadUploadLimit',
          onDone: { actions: assign({ uploadLimitBytes: ({ event }) => event.output }) },
          onError: {},
        },
      ],
      on: {
        'thread.input': { actions: assign({ draft: ({ event }) => event.text }) },
        'thread.quote': { guard: 'quotable', actions: assign({ quote: ({ event }) => event.messageId }) },
        'thread.reply': { guard: 'ours', actions: 'takeReply' },
        'thread.deleted': {
          guard: 'shownHere',
          actions: assign(({ context, event }) => ({
            replies: context.replies.filter((m) => m.id !== event.messageId),
            quote: context.quote === event.messageId ? null : context.quote,
            root:
              event.thread && event.rootId === context.rootId ? withSummary(context.root, event.thread) : context.root,
          })),
        },
        'thread.close': { target: '#threadPanel.closed' },
      },
      initial: 'loading',
      states: {
        loading: {
          tags: [THREAD_TAGS.loading],
          invoke: {
            id: 'load',
            src: 'load',
            input: ({ context }) => ({ rootId: context.rootId }),
            onDone: { target: 'shown', actions: { type: 'takePage', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'fail', params: ({ event }) => failureMessage(event.error, THREAD_LOAD_FAILED) },
            },
          },
        },
        failed: {
          tags: [THREAD_TAGS.failed],
          on: { 'thread.retry': { target: 'loading' } },
        },
        shown: {
          tags: [THREAD_TAGS.shown],
          // The newest replies are on screen: read up to them (a failure only leaves the count as it was).
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ context }) => ({ rootId: context.rootId }),
            onError: {},
          },
          on: {
            'thread.reply': { guard: 'ours', target: 'shown', reenter: true, actions: 'takeReply' },
            'thread.more': { guard: 'hasMore', target: 'loadingMore' },
            'thread.send': [
              { guard: 'needsUpload', target: 'uploading', actions: 'takeMentions' },
              { guard: 'typed', target: 'sending', actions: 'takeMentions' },
            ],
            'thread.attach': [
              {
                guard: 'tooLarge',
                actions: assign({ error: ({ context }) => fileTooLargeText(context.uploadLimitBytes ?? 0) }),
              },
              {
                actions: assign(({ context, event }) => ({
                  files: [...context.files, ...event.files].slice(0, LIMITS.attachmentsMax),
                  uploaded: [],
                  error: null,
                })),
              },
            ],
            'thread.detach': {
              actions: assign(({ context, event }) => ({
                files: context.files.filter((_, i) => i !== event.index),
                uploaded: [],
              })),
            },
            'thread.follow': { target: 'following' },
            'thread.retry': { target: 'loading' },
          },
        },
        loadingMore: {
          tags: [THREAD_TAGS.shown, THREAD_TAGS.loadingMore],
          invoke: {
            id: 'loadMore',
            src: 'load',
            input: ({ context }) => ({ rootId: context.rootId, before: context.replies[0]?.id }),
            onDone: { target: 'shown', actions: { type: 'takeOlder', params: ({ event }) => event.output } },
            onError: {
              target: 'shown',
              actions: { type: 'fail', params: ({ event }) => failureMessage(event.error, THREAD_LOAD_FAILED) },
            },
          },
        },
        uploading: {
          tags: [THREAD_TAGS.shown, THREAD_TAGS.sending, THREAD_TAGS.uploading, THREAD_TAGS.busy],
          entry: assign({ progress: 0, error: null }),
          invoke: { id: 'upload', src: 'upload', input: ({ context }) => ({ files: context.files }) },
          on: {
            'thread.uploadProgress': { actions: assign({ progress: ({ event }) => event.percent }) },
            'thread.uploaded': {
              target: 'sending',
              actions: assign({ uploaded: ({ event }) => event.attachments, progress: null }),
            },
            'thread.uploadFailed': {
              target: 'shown',
              actions: assign({ error: ({ event }) => event.message, progress: null }),
            },
          },
        },
        sending: {
          tags: [THREAD_TAGS.shown, THREAD_TAGS.sending, THREAD_TAGS.busy],
          invoke: {
            id: 'send',
            src: 'send',
            input: ({ context }) => sendOf(context),
            onDone: { target: 'shown', actions: { type: 'takeSent', params: ({ event }) => event.output } },
            onError: {
              target: 'shown',
              actions: { type: 'fail', params: ({ event }) => failureMessage(event.error, THREAD_SEND_FAILED) },
            },
          },
        },
        following: {
          tags: [THREAD_TAGS.shown, THREAD_TAGS.busy],
          invoke: {
            id: 'follow',
            src: 'follow',
            input: ({ context, event }) => ({
              rootId: context.rootId,
              follow: event.type === 'thread.follow' ? event.follow : !context.following,
            }),
            onDone: {
              target: 'shown',
              actions: assign({ following: ({ event }) => event.output.following, error: null }),
            },
            onError: {
              target: 'shown',
              actions: { type: 'fail', params: ({ event }) => failureMessage(event.error, THREAD_ACTION_FAILED) },
            },
          },
        },
      },
    },
    closed: {
      type: 'final',
      entry: emit(({ context }) => ({ type: 'thread.closed' as const, rootId: context.rootId })),
    },
  },
});
