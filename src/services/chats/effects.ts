// The chats feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/chats/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';
import { wireChats, wireNavigation, wireChatsFooter } from './chats.effects';

const chatsMenu = () => import('./chats-menu.effects');

export const chatsEffects = {
  chats: { wire: wireChats },
  navigation: { wire: wireNavigation },
  chatsFooter: { wire: wireChatsFooter },
  chatActions: later(chatsMenu, 'wireChatActions'),
} as const satisfies FeatureEffects;
