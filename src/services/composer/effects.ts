// The composer feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/composer/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireComposer } from './composer.effects';

export const composerEffects = {
  composer: { wire: wireComposer },
} as const satisfies FeatureEffects;
