// The outcome of one's reports (registry line 'reportNotices', alive while the signed-in layout is shown): the notices
// kept since the last visit (GET /api/reports/notices) and those arriving live (`report:resolved`), each shown once:
// marked seen on the server as soon as it is shown (docs/administration.md, Reports). Views import this module.
import type { ReportNotice } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type { ReportNotice };

export interface ReportNoticesContext {
  /** Shown until dismissed, oldest first. */
  shown: ReportNotice[];
  /** Shown but not yet marked seen on the server. */
  unseen: string[];
  /** Being marked seen now. */
  marking: string[];
}

export type ReportNoticesEvent =
  | { type: 'notices.arrived'; notice: ReportNotice }
  | { type: 'notices.dismiss'; id: string };

/** «Жалоба рассмотрена: сообщение удалено.» and the like. */
export function noticeText(n: ReportNotice): string {
  const about = n.excerpt ? `на сообщение «${n.excerpt}»` : `на пользователя (${n.targetName})`;
  const outcome =
    n.outcome === 'deleted'
      ? 'сообщение удалено'
      : n.outcome === 'deactivated'
        ? 'аккаунт отключён'
        : 'нарушений не найдено';
  return `Ваша жалоба ${about} рассмотрена: ${outcome}.`;
}

export type ReportNoticesRef = MachineRef<ReportNoticesContext, ReportNoticesEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/reports/reports.effects.ts). */
export interface ReportNoticesEffects {
  /** GET /api/reports/notices. */
  loadNotices: PromiseActorLogic<ReportNotice[], unknown>;
  /** POST /api/reports/notices/seen. */
  markSeen: PromiseActorLogic<unknown, { ids: string[] }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** Outcomes of the user's reports (spawned while the signed-in layout is shown). */
    reportNotices: ReportNoticesRef;
  }
}
