// The admin feature's effects by registry line (its lines: src/machines/admin/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const admin = () => import('./admin.effects');

export const adminEffects = {
  adminUsers: later(admin, 'wireAdminUsers'),
  adminRegistration: later(admin, 'wireAdminRegistration'),
  adminReports: later(admin, 'wireAdminReports'),
  adminStats: later(admin, 'wireAdminStats'),
} as const satisfies FeatureEffects;
