// The conversation feature's effects by registry line (its lines: src/machines/conversation/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const conversation = () => import('./conversation.effects');

export const conversationEffects = {
  conversation: later(conversation, 'wireConversation'),
} as const satisfies FeatureEffects;
