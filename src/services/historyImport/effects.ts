// The historyImport feature's effects by registry line (its lines: src/machines/historyImport/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const historyImport = () => import('./historyImport.effects');

export const historyImportEffects = {
  historyImport: later(historyImport, 'wireHistoryImport'),
} as const satisfies FeatureEffects;
