// The search feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/search/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';
import { wireSearch } from './search.effects';

export const searchEffects = {
  search: { wire: wireSearch },
  conversationSearch: { wire: wireSearch },
  dateJump: later(() => import('./dateJump.effects'), 'wireDateJump'),
} as const satisfies FeatureEffects;
