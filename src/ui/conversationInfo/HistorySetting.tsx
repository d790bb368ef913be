// «История для новых участников» in a group's «Информация» (owner and admins): «Видна» lets whoever joins read the
// whole history, «Скрыта» only what comes after. In a secret chat there is nothing to choose, and it says why.
import { type HistorySettingView, useHistorySetting } from './useHistorySetting';

/** The section with its own actor (alive while it is shown). */
export function HistorySettingSection(props: { conversationId: string; visible: boolean }) {
  return <HistorySetting {...useHistorySetting(props.conversationId, props.visible)} />;
}

const CHOICES = [
  { visible: true, label: 'Видна', hint: 'Новые участники видят все сообщения группы' },
  { visible: false, label: 'Скрыта', hint: 'Новые участники видят только сообщения после вступления' },
];

export function HistorySetting(props: HistorySettingView) {
  return (
    <fieldset className="info-history" aria-busy={props.saving} data-testid="history-setting">
      <legend className="info-section">История для новых участников</legend>
      {CHOICES.map((c) => (
        <label key={c.label} className="info-history-choice">
          <input
            type="radio"
            name="history-visible"
            checked={props.visible === c.visible}
            disabled={props.saving}
            onChange={() => props.onSet(c.visible)}
          />
          <span>
            {c.label}
            <span className="info-history-hint">{c.hint}</span>
          </span>
        </label>
      ))}
      {props.error && (
        <p className="info-error" role="alert">
          {props.error}{' '}
          <button type="button" className="button ghost" onClick={props.onDismiss}>
            Закрыть
          </button>
        </p>
      )}
    </fieldset>
  );
}

/** A secret group's note in place of the setting: MLS gives a newcomer's devices no keys to the past. */
export function SecretHistoryNote() {
  return <p className="info-note">В секретных чатах новые участники видят только сообщения после вступления</p>;
}
