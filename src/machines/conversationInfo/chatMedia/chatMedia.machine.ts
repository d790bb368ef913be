// «Медиа», «Файлы», «Ссылки», «Голосовые» (protocol: chatMedia.protocol.ts): the shown tab loads its first page
// (loading → loaded, or failed with «Повторить»); scrolling to the end of a tab with more loads the next
// (loadingMore → loaded, or failed, keeping what it has); a tab already loaded shows again as it was. A jump
// opens the chat at the message through the chats actor, as a search result does, and is emitted so the panel
// can step aside on a narrow screen.
import { assign, emit, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  CHAT_MEDIA_FAILED,
  CHAT_MEDIA_TAGS,
  type ChatMediaContext,
  type ChatMediaEffects,
  type ChatMediaEmitted,
  type ChatMediaEvent,
  type ChatMediaInput,
  type ChatMediaKind,
  type ChatMediaPage,
  type ChatMediaRequest,
  emptyTab,
} from './chatMedia.protocol';

export * from './chatMedia.protocol';

const request = (context: ChatMediaContext, before: string | null): ChatMediaRequest => ({
  conversationId: context.conversationId,
  userId: context.userId,
  secret: context.secret,
  kind: context.tab,
  before,
});

export const chatMediaMachine = setup({
  types: {
    context: {} as ChatMediaContext,
    events: {} as ChatMediaEvent,
    input: {} as ChatMediaInput,
    emitted: {} as ChatMediaEmitted,
  },
  actors: {
    loadPage: notWired('chatMedia.loadPage') as ChatMediaEffects['loadPage'],
  },
  guards: {
    shown: ({ context }, kind: ChatMediaKind) => context.tab === kind,
    loaded: ({ context }, kind: ChatMediaKind) => context.tabs[kind].loaded,
    hasMore: ({ context }) => context.tabs[context.tab].nextBefore !== null,
    hasEntries: ({ context }) => context.tabs[context.tab].loaded,
  },
  actions: {
    choose: assign((_, kind: ChatMediaKind) => ({ tab: kind, error: null })),
    firstPage: assign(({ context }, page: ChatMediaPage) => ({
      tabs: {
        ...context.tabs,
        [context.tab]: { entries: page.entries, nextBefore: page.nextBefore, loaded: true },
      },
    })),
    nextPage: assign(({ context }, page: ChatMediaPage) => {
      const tab = context.tabs[context.tab];
      const known = new Set(tab.entries.map((e) => e.messageId));
      return {
        tabs: {
          ...context.tabs,
          [context.tab]: {
            entries: [...tab.entries, ...page.entries.filter((e) => !known.has(e.messageId))],
            nextBefore: page.nextBefore,
            loaded: true,
          },
        },
      };
    }),
    failed: assign((_, error: unknown) => ({ error: failureMessage(error, CHAT_MEDIA_FAILED) })),
    jump: enqueueActions(({ context, system, enqueue }, messageId: string) => {
      const chats = chatsInbox(system);
      if (chats) enqueue.sendTo(chats, { type: 'chats.open', conversationId: context.conversationId, messageId });
      enqueue(emit({ type: 'chatMedia.jumped', messageId }));
    }),
  },
}).createMachine({
  id: 'chatMedia',
  context: ({ input }) => ({
    ...input,
    tab: 'media',
    tabs: { media: emptyTab(), files: emptyTab(), links: emptyTab(), voice: emptyTab() },
    error: null,
  }),
  on: {
    'chatMedia.tab': [
      { guard: { type: 'shown', params: ({ event }) => event.kind } },
      {
        guard: { type: 'loaded', params: ({ event }) => event.kind },
        target: '.loaded',
        actions: { type: 'choose', params: ({ event }) => event.kind },
      },
      { target: '.loading', reenter: true, actions: { type: 'choose', params: ({ event }) => event.kind } },
    ],
    'chatMedia.jump': { actions: { type: 'jump', params: ({ event }) => event.messageId } },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: [CHAT_MEDIA_TAGS.loading],
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => request(context, null),
        onDone: {
          target: 'loaded',
          actions: { type: 'firstPage', params: ({ event }: { event: { output: ChatMediaPage } }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: { type: 'failed', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
    loaded: {
      on: { 'chatMedia.more': { guard: 'hasMore', target: 'loadingMore' } },
    },
    loadingMore: {
      tags: [CHAT_MEDIA_TAGS.loadingMore],
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => request(context, context.tabs[context.tab].nextBefore),
        onDone: {
          target: 'loaded',
          actions: { type: 'nextPage', params: ({ event }: { event: { output: ChatMediaPage } }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: { type: 'failed', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
    failed: {
      tags: [CHAT_MEDIA_TAGS.failed],
      on: {
        'chatMedia.retry': [
          { guard: 'hasEntries', target: 'loadingMore', actions: assign({ error: null }) },
          { target: 'loading', actions: assign({ error: null }) },
        ],
      },
    },
  },
});
