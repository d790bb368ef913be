// «Жалобы» in «Администрирование» (registry line 'adminReports', alive while the tab is shown): the open or closed reports
// and what an administrator does about one (docs/administration.md, Reports). Views import this module, never
// adminReports.machine.ts.
import type { AdminReport } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type { AdminReport };

export const REPORTS_FAILED = 'Не удалось загрузить жалобы';
export const RESOLVE_FAILED = 'Не удалось закрыть жалобу. Попробуйте ещё раз.';

/** «Удалить сообщение», «Отключить отправителя», «Отклонить». */
export type ReportAction = 'delete' | 'deactivate' | 'dismiss';
export type ReportQueue = 'open' | 'closed';

export interface AdminReportsContext {
  queue: ReportQueue;
  reports: AdminReport[];
  /** The action asked about or running. */
  pending: { reportId: string; action: ReportAction } | null;
  error: string | null;
}

export type AdminReportsEvent =
  | { type: 'reports.show'; queue: ReportQueue }
  | { type: 'reports.reload' }
  | { type: 'reports.resolve'; reportId: string; action: ReportAction }
  | { type: 'reports.confirm' }
  | { type: 'reports.cancel' };

export const REPORTS_TAGS = { busy: 'busy', confirming: 'confirming' } as const;

export type AdminReportsRef = MachineRef<AdminReportsContext, AdminReportsEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/admin/admin.effects.ts). */
export interface AdminReportsEffects {
  /** GET /api/admin/reports?status=. */
  loadReports: PromiseActorLogic<AdminReport[], { queue: ReportQueue }>;
  /** POST /api/admin/reports/resolve. */
  resolve: PromiseActorLogic<unknown, { reportId: string; action: ReportAction }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Жалобы» (spawned while the tab is shown). */
    adminReports: AdminReportsRef;
  }
}
