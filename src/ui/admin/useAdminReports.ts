// «Жалобы»: its actor (alive while the tab is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import {
  type AdminReport,
  REPORTS_TAGS,
  type ReportAction,
  type ReportQueue,
} from '../../machines/admin/adminReports/adminReports.protocol';

const NONE: AdminReport[] = [];

export function useAdminReports() {
  const actor = useOwnedActor('adminReports');
  const reports = useSelector(actor, (s) => s?.context.reports ?? NONE);
  const pending = useSelector(actor, (s) => s?.context.pending ?? null);
  const confirming = useSelector(actor, (s) => s?.hasTag(REPORTS_TAGS.confirming) ?? false);
  const asked = confirming && pending ? reports.find((r) => r.id === pending.reportId) : undefined;
  return {
    reports,
    queue: useSelector(actor, (s) => s?.context.queue ?? 'open'),
    busy: useSelector(actor, (s) => s?.hasTag(REPORTS_TAGS.busy) ?? true),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    /** The action asked about, with whom it is about. */
    confirm: asked && pending ? { action: pending.action, name: asked.target.displayName } : null,
    onShow: (queue: ReportQueue) => actor.send({ type: 'reports.show', queue }),
    onResolve: (reportId: string, action: ReportAction) => actor.send({ type: 'reports.resolve', reportId, action }),
    onConfirm: () => actor.send({ type: 'reports.confirm' }),
    onCancel: () => actor.send({ type: 'reports.cancel' }),
  };
}
export type AdminReportsView = ReturnType<typeof useAdminReports>;
