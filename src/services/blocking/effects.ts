// The blocking feature's effects by registry line (its lines: src/machines/blocking/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const blocking = () => import('./blocking.effects');

export const blockingEffects = {
  blocking: later(blocking, 'wireBlocking'),
} as const satisfies FeatureEffects;
