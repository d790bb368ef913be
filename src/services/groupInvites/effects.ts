// The groupInvites feature's effects by registry line (its lines: src/machines/groupInvites/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const groupInvites = () => import('./groupInvites.effects');

export const groupInvitesEffects = {
  groupInvites: later(groupInvites, 'wireGroupInvites'),
  joinGroup: later(groupInvites, 'wireJoinGroup'),
} as const satisfies FeatureEffects;
