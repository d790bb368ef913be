// The composer feature's effects by registry line (its lines: src/machines/composer/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireComposer } from './composer.effects';

export const composerEffects = {
  composer: { wire: wireComposer },
} as const satisfies FeatureEffects;
