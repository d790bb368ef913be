// «Удалить сообщение?» (own messages: for everyone or for me) and the «Отменить» toast that follows any removal
// (docs/behaviour.md §10.19).
import { Modal } from '../shared/Modal';
import type { RemovalMode } from '../../machines/messageActions/removal/removal.protocol';
import '../shared/toast.css';
import './message-actions.css';

export interface RemovalPromptProps {
  asking: { count: number } | null;
  undo: { count: number; mode: RemovalMode } | null;
  error: string | null;
  choose(mode: RemovalMode): void;
  cancel(): void;
  undoIt(): void;
  dismissError(): void;
}

export function RemovalPrompt(props: RemovalPromptProps) {
  const many = (props.asking?.count ?? 1) > 1;
  return (
    <>
      {props.asking && (
        <Modal
          title={many ? `Удалить сообщения (${props.asking.count})?` : 'Удалить сообщение?'}
          onClose={props.cancel}
        >
          <div className="removal-choices">
            <button type="button" className="button danger" onClick={() => props.choose('everyone')}>
              Удалить у всех
            </button>
            <button type="button" className="button ghost" onClick={() => props.choose('me')}>
              Удалить у меня
            </button>
            <button type="button" className="button ghost" onClick={props.cancel}>
              Отмена
            </button>
          </div>
        </Modal>
      )}
      {props.undo && (
        <div className="toast" role="status" data-testid="undo-toast">
          <span>{undoText(props.undo.count, props.undo.mode)}</span>
          <button type="button" className="toast-action" onClick={props.undoIt}>
            Отменить
          </button>
        </div>
      )}
      {props.error && !props.undo && (
        <div className="toast" role="alert">
          <span>{props.error}</span>
          <button type="button" className="toast-action" onClick={props.dismissError}>
            Закрыть
          </button>
        </div>
      )}
    </>
  );
}

function undoText(count: number, mode: RemovalMode): string {
  if (mode === 'everyone') return count > 1 ? `Сообщения удалены (${count})` : 'Сообщение удалено';
  return count > 1 ? `Сообщения скрыты (${count})` : 'Сообщение скрыто';
}
