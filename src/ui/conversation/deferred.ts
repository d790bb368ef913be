// The conversation feature's view hooks for code that loads after the first paint (the chats page's conversation
// pane, src/ui/chats/ConversationPane.tsx). Apart from ui/index.ts on purpose: a module re-exported by an
// index the first bundle loads is bundled with that index, used there or not.
export { useConversationPane } from './useConversationPane';
export { PreviewCardsContext } from './usePreviewCard';
