// «Пожаловаться»: its actor (alive while the dialog is open) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';
import {
  REPORT_TAGS,
  type ReportReason,
  type ReportTarget,
} from '../../machines/reports/reportDialog/reportDialog.protocol';

export function useReportDialog(target: ReportTarget, onClose: () => void) {
  const actor = useOwnedActor('reportDialog', { target });
  const done = useSelector(actor, (s) => s?.status === 'done');
  // «Жалоба отправлена» has been shown: the dialog goes away.
  useEffect(() => {
    if (done) onClose();
  }, [done, onClose]);
  return {
    busy: useSelector(actor, (s) => s?.hasTag(REPORT_TAGS.busy) ?? true),
    sent: useSelector(actor, (s) => s?.hasTag(REPORT_TAGS.sent) ?? false),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    onSend: (reason: ReportReason, comment: string) => actor.send({ type: 'report.send', reason, comment }),
    onClose,
  };
}
export type ReportDialogView = ReturnType<typeof useReportDialog> & { about: 'message' | 'person' };
