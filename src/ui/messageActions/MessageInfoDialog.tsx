// «Информация» on one's own message (docs/behaviour.md §10.19): «Прочитали» with the time, and who has not yet
// («Не прочитали»); in a direct chat, the read time alone. Its actor (messageInfo) lives while the dialog is open.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { Modal } from '../shared/Modal';
import './message-actions.css';

export interface MessageInfoDialogProps {
  messageId: string;
  /** Names of the conversation's members by id. */
  names: ReadonlyMap<string, string>;
  isGroup: boolean;
  onClose(): void;
}

const when = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toLocaleString('ru-RU', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });
};

export function MessageInfoDialog(props: MessageInfoDialogProps) {
  const actor = useOwnedActor('messageInfo', { messageId: props.messageId });
  const info = useSelector(actor, (s) => s?.context.info ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const name = (id: string) => props.names.get(id) ?? 'Удалённый аккаунт';
  return (
    <Modal title="Информация о сообщении" onClose={props.onClose}>
      {error ? (
        <div role="alert">
          <p>{error}</p>
          <button type="button" className="button ghost" onClick={() => actor.send({ type: 'info.retry' })}>
            Повторить
          </button>
        </div>
      ) : !info ? (
        <p role="status">Загружаем…</p>
      ) : !props.isGroup ? (
        <p data-testid="read-time">
          {info.read.length ? `Прочитано ${when(info.read[0].readAt)}`.trim() : 'Ещё не прочитано'}
        </p>
      ) : (
        <>
          <h3 className="info-heading">Прочитали</h3>
          <ul className="info-list" aria-label="Прочитали">
            {info.read.map((r) => (
              <li key={r.userId}>
                <span>{name(r.userId)}</span> <span className="info-time">{when(r.readAt)}</span>
              </li>
            ))}
            {info.read.length === 0 && <li className="info-none">Пока никто</li>}
          </ul>
          <h3 className="info-heading">Не прочитали</h3>
          <ul className="info-list" aria-label="Не прочитали">
            {info.unread.map((id) => (
              <li key={id}>{name(id)}</li>
            ))}
            {info.unread.length === 0 && <li className="info-none">Все прочитали</li>}
          </ul>
        </>
      )}
    </Modal>
  );
}
