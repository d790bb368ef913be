// The search feature's view hooks for code that loads after the first paint (the chats page's conversation pane).
// Apart from ui/index.ts on purpose: a module re-exported by an index the first bundle loads is bundled with it.
export { useConversationSearch } from './useConversationSearch';
export { useListFoundThread } from './useFoundThread';
