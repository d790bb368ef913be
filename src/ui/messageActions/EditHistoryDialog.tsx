// «История изменений» (docs/behaviour.md §10.43): the current text, then the earlier ones, newest first, each with
// when it was written (its text as typed, without formatting). EditHistoryView renders from props; EditHistoryDialog gives it its actor (useEditHistory).
// Both load on demand with the dialog.
import type { MessageVersions } from '../../machines/messageActions/editHistory/editHistory.protocol';
import { Modal } from '../shared/Modal';
import { useEditHistory } from './useEditHistory';
import './message-actions.css';

export interface EditHistoryDialogProps {
  messageId: string;
  /** The message's text now: when it changes while the dialog is open, the history is asked again. */
  text: string | null;
  onClose(): void;
}

export interface EditHistoryViewProps {
  versions: MessageVersions | null;
  error: string | null;
  onRetry(): void;
  onClose(): void;
}

const when = (iso: string) =>
  new Date(iso).toLocaleString('ru-RU', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

export function EditHistoryView(props: EditHistoryViewProps) {
  return (
    <Modal title="История изменений" onClose={props.onClose}>
      {props.error ? (
        <div role="alert">
          <p>{props.error}</p>
          <button type="button" className="button ghost" onClick={props.onRetry}>
            Повторить
          </button>
        </div>
      ) : !props.versions ? (
        <p role="status">Загружаем…</p>
      ) : (
        <ol className="edit-history" aria-label="Версии сообщения">
          {props.versions.map((v) => (
            <li key={`${v.at}-${v.current ? 'now' : 'then'}`} data-testid="edit-version">
              <span className="info-time">{v.current ? `${when(v.at)} · текущая версия` : when(v.at)}</span>
              <p className="edit-history-text">{v.content}</p>
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}

export function EditHistoryDialog(props: EditHistoryDialogProps) {
  const view = useEditHistory(props.messageId, props.text);
  return <EditHistoryView {...view} onClose={props.onClose} />;
}
