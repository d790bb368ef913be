// «Жалобы» (docs/behaviour.md §10.20): «Открытые» and «Закрытые»; each report with its reason, comment, who sent it and
// about whom, the reported message as the reporter saw it with the messages before it; «Удалить сообщение»,
// «Отключить отправителя» (asked about first) and «Отклонить».
import { Modal } from '../shared/Modal';
import type { AdminReport } from '../../machines/admin/adminReports/adminReports.protocol';
import { REASON_TEXT, REPORT_STATUS_TEXT, when } from './texts';
import { type AdminReportsView, useAdminReports } from './useAdminReports';

export function ReportsTab() {
  return <ReportsView {...useAdminReports()} />;
}

export function ReportsView(props: AdminReportsView) {
  const open = props.queue === 'open';
  return (
    <section className="card admin-section" aria-labelledby="admin-reports-title" aria-busy={props.busy}>
      <h2 className="form-title" id="admin-reports-title">
        Жалобы
      </h2>
      <fieldset className="admin-queue">
        <legend className="visually-hidden">Показать</legend>
        <button type="button" className="button ghost" aria-pressed={open} onClick={() => props.onShow('open')}>
          Открытые
        </button>
        <button type="button" className="button ghost" aria-pressed={!open} onClick={() => props.onShow('closed')}>
          Закрытые
        </button>
      </fieldset>
      {props.error && (
        <p className="inline-error" role="alert">
          {props.error}
        </p>
      )}
      {!props.busy && props.reports.length === 0 && !props.error && (
        <p className="empty-note">{open ? 'Открытых жалоб нет' : 'Закрытых жалоб нет'}</p>
      )}
      <ul className="admin-reports">
        {props.reports.map((r) => (
          <ReportItem key={r.id} report={r} busy={props.busy} onResolve={props.onResolve} />
        ))}
      </ul>
      {props.confirm && (
        <Modal
          title={
            props.confirm.action === 'delete'
              ? 'Удалить сообщение у всех?'
              : `Отключить аккаунт: ${props.confirm.name}?`
          }
          onClose={props.onCancel}
        >
          <p>
            {props.confirm.action === 'delete'
              ? 'Сообщение исчезнет у всех участников беседы. Другие жалобы на него закроются.'
              : 'Все сеансы завершатся сразу, войти будет нельзя, пока аккаунт не включат снова.'}
          </p>
          <div className="modal-actions">
            <button type="button" className="button danger" onClick={props.onConfirm}>
              {props.confirm.action === 'delete' ? 'Удалить' : 'Отключить'}
            </button>
            <button type="button" className="button ghost" onClick={props.onCancel}>
              Отмена
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}

function ReportItem(props: { report: AdminReport; busy: boolean; onResolve: AdminReportsView['onResolve'] }) {
  const r = props.report;
  const titleId = `report-${r.id}`;
  return (
    <li className="admin-report" data-testid="admin-report" aria-labelledby={titleId}>
      <h3 id={titleId} className="admin-report-title">
        {r.message ? 'Жалоба на сообщение' : 'Жалоба на пользователя'} · {REASON_TEXT[r.reason]}
      </h3>
      <dl className="admin-report-facts">
        <dt>{r.message ? 'Автор' : 'Пользователь'}</dt>
        <dd>
          {r.target.displayName} (@{r.target.username}){r.target.deactivated ? ' — аккаунт отключён' : ''}
        </dd>
        <dt>Отправил</dt>
        <dd>
          {r.reporter.displayName} (@{r.reporter.username}), {when(r.createdAt)}
        </dd>
        {r.comment && (
          <>
            <dt>Комментарий</dt>
            <dd>{r.comment}</dd>
          </>
        )}
        {r.status !== 'open' && (
          <>
            <dt>Решение</dt>
            <dd>{REPORT_STATUS_TEXT[r.status]}</dd>
          </>
        )}
      </dl>
      {r.message && (
        <div className="admin-report-context">
          {r.context.map((c) => (
            <p key={`${c.createdAt}-${c.authorName}`} className="admin-context-line">
              <span className="admin-context-author">{c.authorName}:</span> {c.text}
            </p>
          ))}
          <blockquote className="admin-reported" data-testid="reported-message">
            <span className="admin-context-author">{r.target.displayName}:</span> {r.message.text}
            {r.message.deleted && <em> (удалено)</em>}
          </blockquote>
        </div>
      )}
      {r.status === 'open' && (
        <div className="admin-actions">
          {r.message && !r.message.deleted && (
            <button
              type="button"
              className="button ghost"
              disabled={props.busy}
              onClick={() => props.onResolve(r.id, 'delete')}
            >
              Удалить сообщение
            </button>
          )}
          {!r.target.deactivated && (
            <button
              type="button"
              className="button ghost"
              disabled={props.busy}
              onClick={() => props.onResolve(r.id, 'deactivate')}
            >
              {r.message ? 'Отключить отправителя' : 'Отключить пользователя'}
            </button>
          )}
          <button
            type="button"
            className="button ghost"
            disabled={props.busy}
            onClick={() => props.onResolve(r.id, 'dismiss')}
          >
            Отклонить
          </button>
        </div>
      )}
    </li>
  );
}
