// The views of the chats feature that other features and the app's routes render.

import { lazyView } from '../shared/lazy-view';

export { ChatsBackButton } from '../shared/chats-shell-context';
export { ChatsPage } from './ChatsPage';
// What other features' views read of the chat list (the chats actor is reached here, not by id across features).
export { useChatEntries, useChatEntry, useOpenChat, useOpenConversation } from '../shared/useChatList';

/** The app's keys (Ctrl/⌘+K, Ctrl/⌘+/, Alt+↑/↓) and their dialogs: fetched after the chat list's first paint. */
export const LazyKeyboard = lazyView(() => import('./Keyboard').then((m) => m.Keyboard), { afterFirstPaint: true });
