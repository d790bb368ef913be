// The threads feature's views for code that loads after the first paint (the chats page's conversation pane,
// src/ui/chats/ConversationPane.tsx). Apart from ui/index.ts on purpose: the first bundle loads that index for the
// «Обсуждения» entry, and everything it re-exports (the thread panel's hook with the composer's views) would ride along.
import { lazyView } from '../shared/lazy-view';
import type { ThreadPanelProps } from './useThreadPanel';

export type { ThreadPanelProps } from './useThreadPanel';
export { useThreadPanel } from './useThreadPanel';
/** Loaded when a thread is first opened. */
export const LazyThreadPanel = lazyView<ThreadPanelProps>(() => import('./ThreadPanel').then((m) => m.ThreadPanel));
