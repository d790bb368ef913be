// The views of the threads feature («Обсуждения») that other features render; the thread panel and its hook are in
// deferred.ts (the conversation pane loads them after the first paint).
import { lazyView } from '../shared/lazy-view';
import type { FollowedThreadsProps } from './useFollowedThreads';

export type { FollowedThreadsProps } from './useFollowedThreads';
/** «Обсуждения» shows only for one who follows a thread: its view loads apart from the first bundle. */
export const LazyThreadsEntry = lazyView<FollowedThreadsProps>(
  () => import('./ThreadsEntry').then((m) => m.ThreadsEntry),
  { afterFirstPaint: true },
);
export { useFollowedThreads } from './useFollowedThreads';
