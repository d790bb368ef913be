// The groupInvites feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/groupInvites/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const groupInvites = () => import('./groupInvites.effects');

export const groupInvitesEffects = {
  groupInvites: later(groupInvites, 'wireGroupInvites'),
  joinGroup: later(groupInvites, 'wireJoinGroup'),
} as const satisfies FeatureEffects;
