// The reports feature's effects: requests over the API client of the composition root.
import { fromPromise } from 'xstate';
import type { Services } from '../app/services';
import {
  type ReportDialogEffects,
  reportDialogMachine,
} from '../../machines/reports/reportDialog/reportDialog.machine';
import type { ReportReason, ReportTarget } from '../../machines/reports/reportDialog/reportDialog.protocol';
import {
  type ReportNoticesEffects,
  reportNoticesMachine,
} from '../../machines/reports/reportNotices/reportNotices.machine';

export const wireReportDialog = (s: Services) =>
  reportDialogMachine.provide({
    actors: {
      sendReport: fromPromise<unknown, { target: ReportTarget; reason: ReportReason; comment: string }>(({ input }) =>
        s.api.call('report', {
          body: {
            ...input.target,
            reason: input.reason,
            ...(input.comment.trim() ? { comment: input.comment.trim() } : {}),
          },
        }),
      ),
    } satisfies ReportDialogEffects,
  });

export const wireReportNotices = (s: Services) =>
  reportNoticesMachine.provide({
    actors: {
      loadNotices: fromPromise(async () => (await s.api.call('reportNotices')).notices),
      markSeen: fromPromise<unknown, { ids: string[] }>(({ input }) =>
        s.api.call('reportNoticesSeen', { body: { ids: input.ids } }),
      ),
    } satisfies ReportNoticesEffects,
  });
