// The «Статус» dialog (docs/behaviour.md §10.44): an emoji from the row (the same one again takes it off), a text of at
// most 80 characters, «Сбросить через», «Сохранить», «Сбросить» (with a status set) and «Отмена». Loaded when first
// opened (deferred.ts); CustomStatusDialogView renders from props.
import { type FormEvent, useId } from 'react';
import { CLEAR_AFTER, CLEAR_AFTER_LABELS, type ClearAfter, CUSTOM_STATUS_TEXT_MAX } from '../../contract/custom-status';
import type { CustomStatus } from '../../contract/entities';
import { STATUS_EMOJI } from '../../machines/profile/customStatus/customStatus.protocol';
import { Modal } from '../shared/Modal';
import { useCustomStatus, type CustomStatusDialogView as View } from './useCustomStatus';
import './profile.css';

export interface CustomStatusDialogProps {
  current: CustomStatus | null;
  onClose(): void;
}

export function CustomStatusDialog({ current, onClose }: CustomStatusDialogProps) {
  return <CustomStatusDialogView {...useCustomStatus(current, onClose)} onClose={onClose} />;
}

export function CustomStatusDialogView(props: View & { onClose(): void }) {
  const ids = { text: useId(), after: useId(), count: useId() };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSave();
  };
  return (
    <Modal title="Статус" onClose={props.onClose} className="custom-status-modal">
      <form className="form custom-status-form" onSubmit={submit} aria-busy={props.busy}>
        <fieldset className="custom-status-emoji">
          <legend>Эмодзи</legend>
          {STATUS_EMOJI.map((e) => (
            <button
              key={e}
              type="button"
              className={`emoji-choice${props.emoji === e ? ' chosen' : ''}`}
              aria-pressed={props.emoji === e}
              onClick={() => props.onEmoji(e)}
            >
              {e}
            </button>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={ids.text}>Что у вас</label>
          <input
            id={ids.text}
            name="customStatusText"
            maxLength={CUSTOM_STATUS_TEXT_MAX}
            placeholder="Например, в отпуске"
            aria-describedby={ids.count}
            value={props.text}
            onChange={(e) => props.onText(e.target.value)}
          />
          <p className="hint" id={ids.count}>
            {props.text.length} из {CUSTOM_STATUS_TEXT_MAX}
          </p>
        </div>
        <div className="field">
          <label htmlFor={ids.after}>Сбросить через</label>
          <select
            id={ids.after}
            name="clearAfter"
            value={props.clearAfter}
            onChange={(e) => props.onClearAfter(e.target.value as ClearAfter)}
          >
            {CLEAR_AFTER.map((c) => (
              <option key={c} value={c}>
                {CLEAR_AFTER_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
        <div className="dialog-actions">
          {props.hasCurrent && (
            <button type="button" className="button ghost" disabled={props.busy} onClick={props.onClear}>
              Сбросить
            </button>
          )}
          <button type="button" className="button ghost" onClick={props.onClose}>
            Отмена
          </button>
          <button type="submit" className="button primary" disabled={props.busy}>
            Сохранить
          </button>
        </div>
      </form>
    </Modal>
  );
}
