// The conversationInfo feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/conversationInfo/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const conversationInfo = () => import('./conversationInfo.effects');

export const conversationInfoEffects = {
  conversationInfo: later(conversationInfo, 'wireConversationInfo'),
  historySetting: later(conversationInfo, 'wireHistorySetting'),
  chatMedia: later(conversationInfo, 'wireChatMedia'),
} as const satisfies FeatureEffects;
