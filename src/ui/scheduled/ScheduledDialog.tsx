// «Отправить позже», «Напомнить» and «Запланированные» (docs/behaviour.md §10.32) in one dialog: the times offered
// and a date-and-time field, then «Запланировать?» to confirm; below, the chat's waiting items with «Изменить»,
// «Отправить сейчас» and «Удалить». A plain view of useScheduler's values.
import { useState } from 'react';
import {
  fromLocalInput,
  reminderChoices,
  type ScheduleDraft,
  scheduledLabel,
  sendLaterChoices,
} from '../../machines/scheduled/index';
import { Modal } from '../shared/Modal';
import { type SchedulerView, useScheduler } from './useScheduler';
import './scheduled.css';

export interface ScheduledDialogProps {
  conversationId: string;
  /** What to schedule at once (a text from the composer, a message to be reminded of); null: the list alone. */
  start: ScheduleDraft | null;
  onSaved?(): void;
  onClose(): void;
}

export function ScheduledDialog(props: ScheduledDialogProps) {
  const view = useScheduler(props.conversationId, props.start, () => {
    props.onSaved?.();
    // Opened for one item: done once it is saved.
    if (props.start) props.onClose();
  });
  return <ScheduledView view={view} onClose={props.onClose} />;
}

const titleOf = (draft: ScheduleDraft | null) =>
  !draft
    ? 'Запланированные'
    : draft.kind === 'reminder'
      ? 'Напомнить'
      : draft.kind === 'edit'
        ? 'Изменить время'
        : 'Отправить позже';

export function ScheduledView({ view, onClose }: { view: SchedulerView; onClose(): void }) {
  const [local, setLocal] = useState('');
  const draft = view.draft;
  const now = new Date();
  const choices =
    draft?.kind === 'reminder' || (draft?.kind === 'edit' && draft.reminder)
      ? reminderChoices(now)
      : sendLaterChoices(now);
  return (
    <Modal title={titleOf(draft)} onClose={onClose} className="scheduled-dialog">
      {view.error && (
        <p role="alert" className="scheduled-error">
          {view.error}
        </p>
      )}
      {view.choosing && draft && (
        <div className="scheduled-choose">
          {draft.kind === 'edit' && !draft.reminder && (
            <label className="scheduled-field">
              Текст
              <textarea value={draft.content} onChange={(e) => view.text(e.target.value)} rows={3} />
            </label>
          )}
          <ul className="scheduled-choices" aria-label="Когда">
            {choices.map((c) => (
              <li key={c.label}>
                <button type="button" className="button ghost" onClick={() => view.pick(c.at)}>
                  {c.label}
                </button>
              </li>
            ))}
          </ul>
          <form
            className="scheduled-picker"
            onSubmit={(e) => {
              e.preventDefault();
              const at = fromLocalInput(local);
              if (at) view.pick(at);
            }}
          >
            <label className="scheduled-field">
              Дата и время
              <input type="datetime-local" value={local} onChange={(e) => setLocal(e.target.value)} />
            </label>
            <button type="submit" className="button ghost" disabled={!fromLocalInput(local)}>
              Выбрать
            </button>
          </form>
          <button type="button" className="button ghost" onClick={view.cancel}>
            Отмена
          </button>
        </div>
      )}
      {view.confirming && draft && view.at && (
        <div className="scheduled-confirm">
          <p>
            {draft.kind === 'reminder' ? 'Напомнить' : 'Отправить'} {scheduledLabel(view.at)}?
          </p>
          <button type="button" className="button" disabled={view.busy} onClick={view.confirm}>
            {draft.kind === 'reminder' ? 'Напомнить' : 'Запланировать'}
          </button>
          <button type="button" className="button ghost" disabled={view.busy} onClick={view.back}>
            Назад
          </button>
        </div>
      )}
      {!draft && (
        <>
          {view.loading ? (
            <p role="status">Загружаем…</p>
          ) : view.items.length === 0 ? (
            <p className="scheduled-none">Запланированных сообщений нет</p>
          ) : (
            <ul className="scheduled-list" aria-label="Запланированные">
              {view.items.map((item) => (
                <li key={item.id} className="scheduled-item">
                  <span className="scheduled-time">
                    {item.kind === 'reminder' ? 'Напоминание ' : ''}
                    {scheduledLabel(item.sendAt)}
                  </span>
                  <span className="scheduled-text">{item.content}</span>
                  {item.failure && <span className="scheduled-failure">{item.failure}</span>}
                  <span className="scheduled-actions">
                    <button
                      type="button"
                      className="button ghost"
                      disabled={view.busy}
                      onClick={() => view.edit(item.id)}
                    >
                      Изменить
                    </button>
                    <button
                      type="button"
                      className="button ghost"
                      disabled={view.busy}
                      onClick={() => view.sendNow(item.id)}
                    >
                      Отправить сейчас
                    </button>
                    <button
                      type="button"
                      className="button ghost danger"
                      disabled={view.busy}
                      onClick={() => view.remove(item.id)}
                    >
                      Удалить
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Modal>
  );
}
