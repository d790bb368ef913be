// The realtime feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/realtime/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireRealtime, wireConnectivity } from './realtime.effects';

export const realtimeEffects = {
  realtime: { wire: wireRealtime },
  connectivity: { wire: wireConnectivity },
} as const satisfies FeatureEffects;
