// The threads feature's effects: a thread's pages, following and reading, each one request over the API client.
// Replies go through the composer's outbox (src/services/composer/composer.effects.ts), one clientMessageId each.
import { fromPromise } from 'xstate';
import type { ResponseOf } from '../../contract/api';
import {
  type FollowedThreadsEffects,
  followedThreadsMachine,
} from '../../machines/threads/followedThreads/followedThreads.machine';
import { type ThreadPanelEffects, threadPanelMachine } from '../../machines/threads/threadPanel/threadPanel.machine';
import type { Services } from '../app/services';

export const wireFollowedThreads = (s: Services) =>
  followedThreadsMachine.provide({
    actors: {
      load: fromPromise<ResponseOf<'followedThreads'>>(() => s.api.call('followedThreads', {})),
    } satisfies FollowedThreadsEffects,
  });

export const wireThreadPanel = (s: Services) =>
  threadPanelMachine.provide({
    actors: {
      load: fromPromise<ResponseOf<'thread'>, { rootId: string; before?: string }>(({ input }) =>
        s.api.call('thread', { params: { id: input.rootId }, query: input.before ? { before: input.before } : {} }),
      ),
      follow: fromPromise<ResponseOf<'followThread'>, { rootId: string; follow: boolean }>(({ input }) =>
        s.api.call('followThread', { body: input }),
      ),
      markRead: fromPromise<unknown, { rootId: string }>(({ input }) => s.api.call('readThread', { body: input })),
    } satisfies ThreadPanelEffects,
  });
