// The views of the threads feature («Обсуждения») that other features render.
import { lazyView } from '../shared/lazy-view';
import type { ThreadPanelProps } from './useThreadPanel';

export type { ThreadPanelProps } from './useThreadPanel';
export { useThreadPanel } from './useThreadPanel';
/** Loaded when a thread is first opened, keeping it out of the chats page's first bundle. */
export const LazyThreadPanel = lazyView<ThreadPanelProps>(() => import('./ThreadPanel').then((m) => m.ThreadPanel));
export { ThreadsEntry } from './ThreadsEntry';
export type { FollowedThreadsProps } from './useFollowedThreads';
export { useFollowedThreads } from './useFollowedThreads';
