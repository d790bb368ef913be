// The public face of the chats feature: other features import only this module, ui/index.ts (its views) and its
// *.protocol.ts files.
export { chatsMachine } from './machines/chats/chats.machine';
export { chatsFooterMachine } from './machines/chatsFooter/chatsFooter.machine';
export { chatsLayoutMachine } from './machines/chatsLayout/chatsLayout.machine';
export { chatActionsMachine } from './machines/chatActions/chatActions.machine';
export { navigationMachine } from './machines/navigation/navigation.machine';
