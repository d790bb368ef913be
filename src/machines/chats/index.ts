// The public face of the chats feature: other features import only this module, src/ui/chats/index.ts (its views) and its
// *.protocol.ts files.

export { chatsMachine } from './chats/chats.machine';
export { chatsFooterMachine } from './chatsFooter/chatsFooter.machine';
export { chatsLayoutMachine } from './chatsLayout/chatsLayout.machine';
export { conversationLoaderMachine } from './conversationLoader/conversationLoader.machine';
export { navigationMachine } from './navigation/navigation.machine';
