// The views of the conversation feature that other features and the app's routes render.
export { ConversationView, NoConversation } from './ConversationView';
export { useConversationPane } from './useConversationPane';
export { chatTile } from './view-model';
export type { AvatarView, ChatTileView } from './view-model';
export { callLabel, clock, voicePreview } from './voice-call-text';
