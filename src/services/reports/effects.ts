// The reports feature's effects by registry line (its lines: src/machines/reports/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const reports = () => import('./reports.effects');

export const reportsEffects = {
  reportDialog: later(reports, 'wireReportDialog'),
  reportNotices: later(reports, 'wireReportNotices'),
} as const satisfies FeatureEffects;
