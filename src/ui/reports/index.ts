// The views of the reports feature that other features and the layout render; each loads on first use.
import { lazyView } from '../shared/lazy-view';
import type { ReportDialogProps } from './ReportDialog';

export const LazyReportDialog = lazyView<ReportDialogProps>(() => import('./ReportDialog').then((m) => m.ReportDialog));
export const LazyReportPersonButton = lazyView<{ userId: string }>(() =>
  import('./ReportPersonButton').then((m) => m.ReportPersonButton),
);
export const LazyReportNotices = lazyView(() => import('./ReportNotices').then((m) => m.ReportNotices));
