// The theme feature's effects by registry line (its lines: src/machines/theme/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireTheme } from './theme.effects';

export const themeEffects = {
  theme: { wire: wireTheme },
} as const satisfies FeatureEffects;
