// The realtime feature's effects by registry line (its lines: src/machines/realtime/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireRealtime, wireConnectivity } from './realtime.effects';

export const realtimeEffects = {
  realtime: { wire: wireRealtime },
  connectivity: { wire: wireConnectivity },
} as const satisfies FeatureEffects;
