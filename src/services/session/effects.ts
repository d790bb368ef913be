// The session feature's effects by registry line (its lines: src/machines/session/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireSession, wireSignOutQueue, wireOfflineStore } from './session.effects';

export const sessionEffects = {
  session: { wire: wireSession },
  signOutQueue: { wire: wireSignOutQueue },
  offlineStore: { wire: wireOfflineStore },
} as const satisfies FeatureEffects;
