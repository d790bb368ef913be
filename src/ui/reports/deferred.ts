// The reports feature's views that only code loading after the first paint renders (the conversation pane and its
// parts): apart from index.ts on purpose, which the first bundle loads, so their loaders are not in it.
import { lazyView } from '../shared/lazy-view';
import type { ReportDialogProps } from './ReportDialog';

export const LazyReportDialog = lazyView<ReportDialogProps>(() => import('./ReportDialog').then((m) => m.ReportDialog));
export const LazyReportPersonButton = lazyView<{ userId: string }>(() =>
  import('./ReportPersonButton').then((m) => m.ReportPersonButton),
);
