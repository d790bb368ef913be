// The notifications feature's effects by registry line (its lines: src/machines/notifications/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import type { FeatureEffects } from '../app/effects';
import { wireNotifications } from './notifications.effects';

export const notificationsEffects = {
  notifications: { wire: wireNotifications },
} as const satisfies FeatureEffects;
