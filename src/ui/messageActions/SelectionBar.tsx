// Selection mode's bar in place of the composer: the count, «Переслать», «Копировать», «Удалить» and «Отмена»;
// Escape leaves the mode.
import { useEffect } from 'react';
import './message-actions.css';

export interface SelectionBarProps {
  count: number;
  /** «Удалить» for own messages only, «Скрыть у себя» when someone else's are among them. */
  deleteLabel: string;
  onForward(): void;
  onCopy(): void;
  onDelete(): void;
  onCancel(): void;
}

export function SelectionBar(props: SelectionBarProps) {
  const { onCancel } = props;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // One layer per Escape (docs/behaviour.md §10.49): a menu or dialog above takes it first.
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);
  return (
    <div className="selection-bar" role="toolbar" aria-label="Выбранные сообщения">
      <span className="selection-count" aria-live="polite">
        Выбрано: {props.count}
      </span>
      <button type="button" className="button ghost" onClick={props.onForward}>
        Переслать
      </button>
      <button type="button" className="button ghost" onClick={props.onCopy}>
        Копировать
      </button>
      <button type="button" className="button ghost danger" onClick={props.onDelete}>
        {props.deleteLabel}
      </button>
      <button type="button" className="button ghost" onClick={props.onCancel}>
        Отмена
      </button>
    </div>
  );
}
