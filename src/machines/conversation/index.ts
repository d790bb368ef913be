// The public face of the conversation feature: other features import only this module, src/ui/conversation/index.ts (its views) and its
// *.protocol.ts files. The open conversation's machines load later (wiring.ts, through the registry): they are not
// re-exported here, or the first bundle, which loads this index, would carry them.
export type {
  ConversationActorRef,
  DeletionRequest,
  PageInput,
  PinChange,
  ReactionChange,
} from './conversation/conversation.machine';
export { lightboxMachine } from './lightbox/lightbox.machine';
