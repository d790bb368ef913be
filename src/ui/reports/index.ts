// The views of the reports feature that other features and the layout render; each loads on first use.
import { lazyView } from '../shared/lazy-view';

/** Shown only once there is a notice: fetched after the chat list's first paint. */
export const LazyReportNotices = lazyView(() => import('./ReportNotices').then((m) => m.ReportNotices), {
  afterFirstPaint: true,
});
