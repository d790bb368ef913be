// The scheduled feature's effects by registry line (its lines: src/machines/scheduled/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const scheduled = () => import('./scheduled.effects');

export const scheduledEffects = {
  scheduler: later(scheduled, 'wireScheduler'),
} as const satisfies FeatureEffects;
