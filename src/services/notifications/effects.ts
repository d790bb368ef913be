// The notifications feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/notifications/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireNotifications } from './notifications.effects';

export const notificationsEffects = {
  notifications: { wire: wireNotifications },
} as const satisfies FeatureEffects;
