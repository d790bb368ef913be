// The search feature's effects by registry line (its lines: src/machines/search/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireSearch } from './search.effects';

export const searchEffects = {
  search: { wire: wireSearch },
  conversationSearch: { wire: wireSearch },
} as const satisfies FeatureEffects;
