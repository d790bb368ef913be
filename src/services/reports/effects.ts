// The reports feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/reports/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const reports = () => import('./reports.effects');

export const reportsEffects = {
  reportDialog: later(reports, 'wireReportDialog'),
  reportNotices: later(reports, 'wireReportNotices'),
} as const satisfies FeatureEffects;
