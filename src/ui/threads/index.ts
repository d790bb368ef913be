// The views of the threads feature («Обсуждения») that other features render; the thread panel and its hook are in
// deferred.ts (the conversation pane loads them after the first paint).
export { ThreadsEntry } from './ThreadsEntry';
export type { FollowedThreadsProps } from './useFollowedThreads';
export { useFollowedThreads } from './useFollowedThreads';
