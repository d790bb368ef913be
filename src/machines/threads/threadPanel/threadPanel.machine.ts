// The thread panel's actor (protocol: threadPanel.protocol.ts). Loads the root and the newest replies, pages back
// on request, sends one reply at a time from its own composer, follows and unfollows, and takes the replies the
// server announces (thread:reply) whatever it is doing. Each time it shows the newest replies it marks the thread
// read (the followers' «Обсуждения» count).
import { assign, emit, setup } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import type { Message, ThreadSummary } from '../../../contract/entities';
import { failureMessage } from '../../../contract/failure';
import { listenToServer } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import {
  THREAD_ACTION_FAILED,
  THREAD_LOAD_FAILED,
  THREAD_SEND_FAILED,
  THREAD_TAGS,
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
  },
  guards: {
    ours: ({ context, event }) => event.type === 'thread.reply' && event.message.threadRootId === context.rootId,
    hasMore: ({ context }) => context.hasMore && context.replies.length > 0,
    shownHere: ({ context, event }) =>
      event.type === 'thread.deleted' &&
      (event.rootId === context.rootId || context.replies.some((m) => m.id === event.messageId)),
    typed: ({ context }) => context.draft.trim().length > 0,
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
      // Writing in a thread follows it (the server did the same).
      following: true,
      error: null,
    })),
    fail: assign((_, error: string) => ({ error })),
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
    error: null,
  }),
  initial: 'open',
  states: {
    open: {
      invoke: { id: 'serverEvents', src: 'serverEvents' },
      on: {
        'thread.input': { actions: assign({ draft: ({ event }) => event.text }) },
        'thread.reply': { guard: 'ours', actions: 'takeReply' },
        'thread.deleted': {
          guard: 'shownHere',
          actions: assign(({ context, event }) => ({
            replies: context.replies.filter((m) => m.id !== event.messageId),
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
            'thread.send': { guard: 'typed', target: 'sending' },
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
        sending: {
          tags: [THREAD_TAGS.shown, THREAD_TAGS.sending, THREAD_TAGS.busy],
          invoke: {
            id: 'send',
            src: 'send',
            input: ({ context, event }) => ({
              conversationId: context.conversationId,
              rootId: context.rootId,
              content: context.draft.trim(),
              mentions: event.type === 'thread.send' ? (event.mentions ?? []) : [],
            }),
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
