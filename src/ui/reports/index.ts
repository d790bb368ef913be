// The views of the reports feature that other features and the layout render; each loads on first use.
import { lazyView } from '../shared/lazy-view';

export const LazyReportNotices = lazyView(() => import('./ReportNotices').then((m) => m.ReportNotices));
