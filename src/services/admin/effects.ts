// The admin feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/admin/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const admin = () => import('./admin.effects');

export const adminEffects = {
  adminUsers: later(admin, 'wireAdminUsers'),
  adminRegistration: later(admin, 'wireAdminRegistration'),
  adminReports: later(admin, 'wireAdminReports'),
  adminStats: later(admin, 'wireAdminStats'),
} as const satisfies FeatureEffects;
