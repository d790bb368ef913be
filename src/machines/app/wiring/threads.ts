// The threads feature's effects: a thread's pages, a reply (the send route with threadRootId, idempotent by its
// clientMessageId), following and reading, each one request over the API client.
import { fromPromise } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import { followedThreadsMachine } from '../../threads/followedThreads/followedThreads.machine';
import { threadPanelMachine } from '../../threads/threadPanel/threadPanel.machine';
import type { ThreadSend } from '../../threads/threadPanel/threadPanel.protocol';
import type { Services } from '../services';

export const wireFollowedThreads = (s: Services) =>
  followedThreadsMachine.provide({
    actors: { load: fromPromise<ResponseOf<'followedThreads'>>(() => s.api.call('followedThreads', {})) },
  });

export const wireThreadPanel = (s: Services) =>
  threadPanelMachine.provide({
    actors: {
      load: fromPromise<ResponseOf<'thread'>, { rootId: string; before?: string }>(({ input }) =>
        s.api.call('thread', { params: { id: input.rootId }, query: input.before ? { before: input.before } : {} }),
      ),
      send: fromPromise<ResponseOf<'send'>, ThreadSend>(({ input }) =>
        s.api.call('send', {
          body: {
            conversationId: input.conversationId,
            type: 'TEXT',
            content: input.content,
            threadRootId: input.rootId,
            clientMessageId: crypto.randomUUID(),
            ...(input.mentions.length ? { mentions: input.mentions } : {}),
          },
        }),
      ),
      follow: fromPromise<ResponseOf<'followThread'>, { rootId: string; follow: boolean }>(({ input }) =>
        s.api.call('followThread', { body: input }),
      ),
      markRead: fromPromise<unknown, { rootId: string }>(({ input }) => s.api.call('readThread', { body: input })),
    },
  });
