// The session feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/session/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireSession, wireSignOutQueue, wireOfflineStore } from './session.effects';

export const sessionEffects = {
  session: { wire: wireSession },
  signOutQueue: { wire: wireSignOutQueue },
  offlineStore: { wire: wireOfflineStore },
} as const satisfies FeatureEffects;
