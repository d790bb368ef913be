// The outcomes of one's reports (docs/behaviour.md §10.20): each shown once as a notice with «Закрыть», whether it
// arrives while the page is open or was kept since the last visit.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { noticeText, type ReportNotice } from '../../machines/reports/reportNotices/reportNotices.protocol';
import './reports.css';

const NONE: ReportNotice[] = [];

export function ReportNotices() {
  const actor = useOwnedActor('reportNotices');
  const shown = useSelector(actor, (s) => s?.context.shown ?? NONE);
  return (
    <ReportNoticesView
      notices={shown.map((n) => ({ id: n.id, text: noticeText(n) }))}
      onDismiss={(id) => actor.send({ type: 'notices.dismiss', id })}
    />
  );
}

export function ReportNoticesView(props: { notices: { id: string; text: string }[]; onDismiss(id: string): void }) {
  if (props.notices.length === 0) return null;
  return (
    <section className="report-notices" aria-label="Жалобы">
      {props.notices.map((n) => (
        <div key={n.id} className="report-notice" role="status" data-testid="report-notice">
          <span>{n.text}</span>
          <button type="button" className="toast-action" onClick={() => props.onDismiss(n.id)}>
            Закрыть
          </button>
        </div>
      ))}
    </section>
  );
}
