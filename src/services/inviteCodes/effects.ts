// The inviteCodes feature's effects by registry line (its lines: src/machines/inviteCodes/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const inviteCodes = () => import('./inviteCodes.effects');

export const inviteCodesEffects = {
  inviteCodes: later(inviteCodes, 'wireInviteCodes'),
} as const satisfies FeatureEffects;
