// The profile feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/profile/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';
import { wireProfile } from './profile.effects';

const profileAvatar = () => import('./profile-avatar.effects');
const customStatus = () => import('./custom-status.effects');

export const profileEffects = {
  profile: { wire: wireProfile },
  avatar: later(profileAvatar, 'wireAvatar'),
  groupAvatar: later(profileAvatar, 'wireGroupAvatar'),
  customStatus: later(customStatus, 'wireCustomStatus'),
} as const satisfies FeatureEffects;
