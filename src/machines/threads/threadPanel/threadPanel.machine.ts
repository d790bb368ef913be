// The thread panel's actor (protocol: threadPanel.protocol.ts). Loads the root and the newest replies, pages back
// on request, follows and unfollows, and takes the replies the server announces (thread:reply) whatever it is doing.
// Its composer hands each reply (the trimmed text, or picked files with their caption, with the quote of a reply of
// the same thread and the members named) to the session's composer, whose outbox sends it with one clientMessageId,
// keeps it across reloads and retries it at reconnection like any message; the reply comes back here once the server
// has it. Each time it shows the newest replies it marks the thread read (the followers' «Обсуждения» count).
import { type EventObject, assign, emit, enqueueActions, fromCallback, setup } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import type { Message, ThreadSummary } from '../../../contract/entities';
import { failureMessage } from '../../../contract/failure';
import { parseMarkup } from '../../../contract/text-markup';
import type { ComposerEvent, ThreadReplyPart } from '../../composer/composer/composer.protocol';
import { listenToServer } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  THREAD_ACTION_FAILED,
  THREAD_LOAD_FAILED,
  THREAD_TAGS,
  type ThreadPanelContext,
  type ThreadPanelEffects,
  type ThreadPanelEmitted,
  type ThreadPanelEvent,
  type ThreadPanelInput,
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

/** Own replies the server has, as the composer emits them (shown at once, before thread:reply comes). */
export const ownReplies = fromCallback<EventObject, void, ThreadPanelEvent>(({ system, sendBack }) => {
  const sub = systemActor(system, 'composer')?.on('composer.delivered', (e) => {
    if (e.message.threadRootId) sendBack({ type: 'thread.sent', message: e.message });
  });
  return () => sub?.unsubscribe();
});

/** The replies with these merged in (each id once, oldest first). */
function merged(replies: Message[], more: Message[]): Message[] {
  const byId = new Map(replies.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

const withSummary = (root: Message | null, thread: ThreadSummary): Message | null =>
  root ? { ...root, thread } : root;

/** The quoted reply as the outbox keeps it (its text for the pending reply's «Ответ на:»). */
const quoteOf = (context: ThreadPanelContext) => {
  const quoted = context.replies.find((m) => m.id === context.quote);
  return quoted ? { id: quoted.id, content: quoted.content } : null;
};

/** What the composer hands the outbox for a reply: the trimmed text, or files with the text as their caption. */
function partOf(context: ThreadPanelContext, event: ThreadPanelEvent): ThreadReplyPart | null {
  const mentions = 'mentions' in event && event.mentions?.length ? { mentions: event.mentions } : {};
  if (event.type === 'thread.send') {
    // The markers typed become formatting, as in the conversation's composer (docs/behaviour.md §10.42 Formatting).
    const { text, entities } = parseMarkup(context.draft.trim());
    return {
      kind: 'text',
      content: text,
      replyTo: quoteOf(context),
      ...mentions,
      ...(entities.length ? { entities } : {}),
    };
  }
  if (event.type === 'thread.attach')
    return {
      kind: 'files',
      files: event.files,
      replyTo: quoteOf(context),
      ...(event.caption?.trim() ? { caption: event.caption } : {}),
      ...mentions,
    };
  return null;
}

export const threadPanelMachine = setup({
  types: {
    context: {} as ThreadPanelContext,
    events: {} as ThreadPanelEvent,
    emitted: {} as ThreadPanelEmitted,
    input: {} as ThreadPanelInput,
  },
  actors: {
    serverEvents: threadServerEvents,
    ownReplies,
    load: notWired('threadPanel.load') as ThreadPanelEffects['load'],
    follow: notWired('threadPanel.follow') as ThreadPanelEffects['follow'],
    markRead: notWired('threadPanel.markRead') as ThreadPanelEffects['markRead'],
  },
  guards: {
    ours: ({ context, event }) =>
      (event.type === 'thread.reply' || event.type === 'thread.sent') && event.message.threadRootId === context.rootId,
    hasMore: ({ context }) => context.hasMore && context.replies.length > 0,
    shownHere: ({ context, event }) =>
      event.type === 'thread.deleted' &&
      (event.rootId === context.rootId || context.replies.some((m) => m.id === event.messageId)),
    typed: ({ context }) => context.draft.trim().length > 0,
    picked: ({ event }) => event.type === 'thread.attach' && event.files.length > 0,
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
    // An own reply the server has: shown at once; writing in a thread follows it (the server did the same).
    takeSent: assign(({ context, event }) =>
      event.type === 'thread.sent' ? { replies: merged(context.replies, [event.message]), following: true } : {},
    ),
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
    fail: assign((_, error: string) => ({ error })),
    // The reply goes to the composer's outbox, which sends it (and keeps and retries it); the composer clears.
    handOver: enqueueActions(({ context, event, system, enqueue }) => {
      const part = partOf(context, event);
      if (event.type !== 'thread.send' && event.type !== 'thread.attach') return;
      const composer = systemActor(system, 'composer');
      if (composer && part) {
        const reply: ComposerEvent = {
          type: 'composer.threadReply',
          conversationId: context.conversationId,
          rootId: context.rootId,
          part,
          at: event.at,
        };
        enqueue.sendTo(composer, reply);
      }
      enqueue.assign(event.type === 'thread.send' ? { draft: '', quote: null, error: null } : { quote: null });
    }),
    // The text and quote go to the composer's drafts, so a reload or another visit finds them.
    keepDraft: enqueueActions(({ context, system, enqueue }) => {
      const composer = systemActor(system, 'composer');
      if (!composer) return;
      const replyTo = quoteOf(context) ?? (context.quote ? { id: context.quote, content: '' } : null);
      const kept: ComposerEvent = {
        type: 'composer.threadDraft',
        rootId: context.rootId,
        draft: { text: context.draft, replyTo },
      };
      enqueue.sendTo(composer, kept);
    }),
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
    draft: input.draft?.text ?? '',
    quote: input.draft?.quote ?? null,
    error: null,
  }),
  initial: 'open',
  states: {
    open: {
      invoke: [
        { id: 'serverEvents', src: 'serverEvents' },
        { id: 'ownReplies', src: 'ownReplies' },
      ],
      on: {
        'thread.input': { actions: [assign({ draft: ({ event }) => event.text }), 'keepDraft'] },
        'thread.quote': {
          guard: 'quotable',
          actions: [assign({ quote: ({ event }) => event.messageId }), 'keepDraft'],
        },
        'thread.reply': { guard: 'ours', actions: 'takeReply' },
        'thread.sent': { guard: 'ours', actions: 'takeSent' },
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
            'thread.sent': { guard: 'ours', target: 'shown', reenter: true, actions: 'takeSent' },
            'thread.more': { guard: 'hasMore', target: 'loadingMore' },
            'thread.send': { guard: 'typed', actions: ['handOver', 'keepDraft'] },
            'thread.attach': { guard: 'picked', actions: ['handOver', 'keepDraft'] },
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
