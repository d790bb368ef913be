// «Пожаловаться» (registry line 'reportDialog', alive while the dialog is open): a report on a message or a person with a
// reason and an optional comment (docs/administration.md, Reports). Views import this module, never the machine.
import type { ReportReason } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type { ReportReason };

export const REPORT_FAILED = 'Не удалось отправить жалобу. Попробуйте ещё раз.';
export const REPORT_SENT = 'Жалоба отправлена';
/** The comment's limit (the contract's REPORT_COMMENT_MAX; the browser loads no zod). */
export const COMMENT_MAX = 500;

/** What is reported: a message or a person. */
export type ReportTarget = { messageId: string } | { userId: string };

export interface ReportDialogInput {
  target: ReportTarget;
}

export interface ReportDialogContext {
  target: ReportTarget;
  reason: ReportReason | null;
  comment: string;
  error: string | null;
}

export type ReportDialogEvent = { type: 'report.send'; reason: ReportReason; comment: string };

export const REPORT_TAGS = { busy: 'busy', sent: 'sent' } as const;

export type ReportDialogRef = MachineRef<ReportDialogContext, ReportDialogEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/reports/reports.effects.ts). */
export interface ReportDialogEffects {
  /** POST /api/reports. */
  sendReport: PromiseActorLogic<unknown, { target: ReportTarget; reason: ReportReason; comment: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Пожаловаться» (spawned while the dialog is open). */
    reportDialog: ReportDialogRef;
  }
}
