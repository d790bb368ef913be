// «Создать опрос» (docs/behaviour.md §10.33 Polls): the question, 2–10 options («Добавить вариант», «Убрать
// вариант …»), «Несколько ответов», «Анонимный опрос», «Викторина» with its right option and «Пояснение». Renders
// from props (usePollComposer); the section below it gives it its actor.
import { POLL } from '../../contract/limits';
import { Modal } from '../shared/Modal';
import { type PollComposerView, usePollComposer } from './usePollComposer';
import './polls.css';

/** The dialog with its own actor (alive while it is open). */
export function PollComposerSection(props: { conversationId: string; onClose(): void }) {
  return <PollComposerDialog {...usePollComposer(props.conversationId, props.onClose)} onClose={props.onClose} />;
}

export function PollComposerDialog(props: PollComposerView & { onClose(): void }) {
  const off = props.busy || !props.ready;
  return (
    <Modal title="Создать опрос" onClose={props.onClose} className="poll-composer">
      <form
        className="poll-form"
        aria-busy={props.busy}
        onSubmit={(e) => {
          e.preventDefault();
          props.submit();
        }}
      >
        <label className="field">
          <span>Вопрос</span>
          <input
            value={props.question}
            maxLength={POLL.questionMax}
            disabled={off}
            onChange={(e) => props.setQuestion(e.target.value)}
          />
        </label>
        <fieldset className="poll-options">
          <legend>Варианты ответа</legend>
          {props.options.map((text, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: options are edited in place; their place is their identity
            <div key={i} className="poll-option-row">
              {props.quiz && (
                <input
                  type="radio"
                  name="poll-correct"
                  aria-label={`Правильный ответ: вариант ${i + 1}`}
                  checked={props.correctOption === i}
                  disabled={off}
                  onChange={() => props.setCorrect(i)}
                />
              )}
              <input
                className="input"
                aria-label={`Вариант ${i + 1}`}
                value={text}
                maxLength={POLL.optionMax}
                disabled={off}
                onChange={(e) => props.setOption(i, e.target.value)}
              />
              {props.options.length > POLL.optionsMin && (
                <button
                  type="button"
                  className="button ghost small"
                  aria-label={`Убрать вариант ${i + 1}`}
                  disabled={off}
                  onClick={() => props.removeOption(i)}
                >
                  ✕
                </button>
              )}
            </div>
          ))}
          {props.options.length < POLL.optionsMax && (
            <button type="button" className="button ghost small" disabled={off} onClick={props.addOption}>
              Добавить вариант
            </button>
          )}
        </fieldset>
        <label className="poll-switch">
          <input
            type="checkbox"
            checked={props.anonymous}
            disabled={off}
            onChange={(e) => props.setAnonymous(e.target.checked)}
          />
          Анонимный опрос
        </label>
        <label className="poll-switch">
          <input
            type="checkbox"
            checked={props.multiple}
            disabled={off || props.quiz}
            onChange={(e) => props.setMultiple(e.target.checked)}
          />
          Несколько ответов
        </label>
        <label className="poll-switch">
          <input
            type="checkbox"
            checked={props.quiz}
            disabled={off}
            onChange={(e) => props.setQuiz(e.target.checked)}
          />
          Викторина (один правильный ответ)
        </label>
        {props.quiz && (
          <label className="field">
            <span>Пояснение (покажем после ответа)</span>
            <input
              value={props.explanation}
              maxLength={POLL.explanationMax}
              disabled={off}
              onChange={(e) => props.setExplanation(e.target.value)}
            />
          </label>
        )}
        {props.error && (
          <p className="poll-error" role="alert">
            {props.error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button ghost" onClick={props.onClose}>
            Отмена
          </button>
          <button type="submit" className="button" disabled={off}>
            {props.busy ? 'Отправляем…' : 'Создать'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
