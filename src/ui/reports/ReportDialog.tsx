// «Пожаловаться» (docs/behaviour.md §10.20): a reason («Спам», «Оскорбления», «Насилие», «Незаконный контент»,
// «Другое»), an optional comment and «Отправить»; then the toast «Жалоба отправлена».
import { useId, useState } from 'react';
import { Modal } from '../shared/Modal';
import {
  COMMENT_MAX,
  REPORT_SENT,
  type ReportReason,
  type ReportTarget,
} from '../../machines/reports/reportDialog/reportDialog.protocol';
import { type ReportDialogView, useReportDialog } from './useReportDialog';
import '../shared/admin-parts.css';
import '../shared/toast.css';
import './reports.css';

export const REASONS: { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Спам' },
  { value: 'abuse', label: 'Оскорбления' },
  { value: 'violence', label: 'Насилие' },
  { value: 'illegal', label: 'Незаконный контент' },
  { value: 'other', label: 'Другое' },
];

export interface ReportDialogProps {
  target: ReportTarget;
  onClose(): void;
}

export function ReportDialog(props: ReportDialogProps) {
  const view = useReportDialog(props.target, props.onClose);
  return <ReportDialogBox {...view} about={'messageId' in props.target ? 'message' : 'person'} />;
}

export function ReportDialogBox(props: ReportDialogView) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [comment, setComment] = useState('');
  const commentId = useId();
  if (props.sent)
    return (
      <div className="toast report-toast" role="status">
        {REPORT_SENT}
      </div>
    );
  return (
    <Modal
      title={props.about === 'message' ? 'Пожаловаться на сообщение' : 'Пожаловаться на пользователя'}
      onClose={props.onClose}
    >
      <form
        className="report-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (reason) props.onSend(reason, comment);
        }}
      >
        <fieldset className="admin-modes">
          <legend>Причина</legend>
          {REASONS.map((r) => (
            <label key={r.value} className="admin-mode">
              <input
                type="radio"
                name="reason"
                value={r.value}
                checked={reason === r.value}
                onChange={() => setReason(r.value)}
              />
              {r.label}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={commentId}>Комментарий (необязательно)</label>
          <textarea
            id={commentId}
            rows={3}
            maxLength={COMMENT_MAX}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
        </div>
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
        <div className="modal-actions">
          <button type="submit" className="button primary" disabled={props.busy || !reason}>
            Отправить
          </button>
          <button type="button" className="button ghost" onClick={props.onClose}>
            Отмена
          </button>
        </div>
      </form>
    </Modal>
  );
}
