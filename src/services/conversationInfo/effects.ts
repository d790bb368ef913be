// The conversationInfo feature's effects by registry line (its lines: src/machines/conversationInfo/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const conversationInfo = () => import('./conversationInfo.effects');

export const conversationInfoEffects = {
  conversationInfo: later(conversationInfo, 'wireConversationInfo'),
  historySetting: later(conversationInfo, 'wireHistorySetting'),
} as const satisfies FeatureEffects;
