// The public face of the conversation feature: other features import only this module, ui/index.ts (its views) and its
// *.protocol.ts files.
export { conversationMachine } from './machines/conversation/conversation.machine';
export type {
  ConversationActorRef,
  DeletionRequest,
  PageInput,
  PinChange,
  ReactionChange,
} from './machines/conversation/conversation.machine';
export { lightboxMachine } from './machines/lightbox/lightbox.machine';
export { messageEditMachine } from './machines/messageEdit/messageEdit.machine';
export { readReceiptsMachine } from './machines/readReceipts/readReceipts.machine';
export { typingMachine } from './machines/typing/typing.machine';
