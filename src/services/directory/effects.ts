// The directory feature's effects by registry line (its lines: src/machines/directory/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const directory = () => import('./directory.effects');

export const directoryEffects = {
  directory: later(directory, 'wireDirectory'),
} as const satisfies FeatureEffects;
