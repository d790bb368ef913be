// A poll in the timeline (docs/behaviour.md §10.33 Polls): the question, each option with its bar, share and count
// (live as votes arrive), the viewer's choice marked, a quiz's right answer and explanation once they answered;
// «Отменить голос», «Кто голосовал» (not in an anonymous poll), «Завершить опрос». PollCard renders from props;
// PollSlot gives it the chat's poll actor (PollCardsContext) and the newest of the history's and the answer's poll.
import { useId, useState } from 'react';
import { mergePoll } from '../../contract/poll';
import { type PollRowView, pollCardView } from './poll-card-view';
import { usePollCards } from './usePollVotes';
import './polls.css';

export interface PollCardProps {
  view: ReturnType<typeof pollCardView>;
  question: string;
  multiple: boolean;
  anonymous: boolean;
  closed: boolean;
  explanation: string | null;
  canClose: boolean;
  busy: boolean;
  error: string | null;
  onVote(optionIds: string[]): void;
  onRetract(): void;
  onClose(): void;
}

export function PollCard(props: PollCardProps) {
  const { view } = props;
  const [picked, setPicked] = useState<string[]>([]);
  const [showVoters, setShowVoters] = useState(false);
  const questionId = useId();
  const choosing = view.canVote && !props.busy;
  return (
    <section className="poll-card" aria-labelledby={questionId} aria-busy={props.busy} data-testid="poll">
      <p className="poll-kind">
        📊 {view.kind}
        {props.multiple ? ' · несколько ответов' : ''}
        {props.closed ? ' · завершён' : ''}
      </p>
      <p className="poll-question" id={questionId}>
        {props.question}
      </p>
      <ul className="poll-list">
        {view.options.map((o) => (
          <li key={o.id} className={`poll-item${o.mine ? ' mine' : ''}${o.correct ? ' correct' : ''}`}>
            <div className="poll-line">
              {view.canVote && props.multiple ? (
                <label className="poll-choice">
                  <input
                    type="checkbox"
                    checked={picked.includes(o.id)}
                    disabled={!choosing}
                    onChange={(e) =>
                      setPicked((p) => (e.target.checked ? [...p, o.id] : p.filter((id) => id !== o.id)))
                    }
                  />
                  {o.text}
                </label>
              ) : view.canVote ? (
                <button
                  type="button"
                  className="poll-choice poll-choice-button"
                  disabled={!choosing}
                  onClick={() => props.onVote([o.id])}
                >
                  {o.text}
                </button>
              ) : (
                <span className="poll-choice">
                  {o.text}
                  {o.mine && <span className="poll-mark"> ✓ ваш выбор</span>}
                  {o.correct && <span className="poll-mark"> · правильный ответ</span>}
                </span>
              )}
              <span className="poll-figures">
                {o.percent}% · {o.votes}
              </span>
            </div>
            <meter className="poll-bar" aria-label={`${o.text}: ${o.percent}%`} min={0} max={100} value={o.percent} />
            {showVoters && o.voters.length > 0 && <p className="poll-voters">{o.voters.join(', ')}</p>}
          </li>
        ))}
      </ul>
      {props.explanation && view.voted && <p className="poll-explanation">{props.explanation}</p>}
      <div className="poll-footer">
        <span className="poll-total" aria-live="polite">
          {view.total}
        </span>
        {view.canVote && props.multiple && (
          <button
            type="button"
            className="poll-action"
            disabled={!choosing || picked.length === 0}
            onClick={() => props.onVote(picked)}
          >
            Голосовать
          </button>
        )}
        {view.canRetract && (
          <button type="button" className="poll-action" disabled={props.busy} onClick={props.onRetract}>
            Отменить голос
          </button>
        )}
        {!props.anonymous && (
          <button
            type="button"
            className="poll-action"
            aria-expanded={showVoters}
            onClick={() => setShowVoters((v) => !v)}
          >
            Кто голосовал
          </button>
        )}
        {props.canClose && !props.closed && (
          <button type="button" className="poll-action" disabled={props.busy} onClick={props.onClose}>
            Завершить опрос
          </button>
        )}
      </div>
      {props.error && (
        <p className="poll-error" role="alert">
          {props.error}
        </p>
      )}
    </section>
  );
}

/** A message's poll card, with the open chat's poll actor. */
export function PollSlot(props: { messageId: string; poll: PollRowView }) {
  const cards = usePollCards();
  const answered = cards?.answered[props.messageId];
  const info = answered ? mergePoll(props.poll.info, answered) : props.poll.info;
  const view = pollCardView(info, props.poll.names);
  return (
    <PollCard
      view={view}
      question={info.question}
      multiple={info.multiple}
      anonymous={info.anonymous}
      closed={info.closed}
      explanation={info.explanation ?? null}
      canClose={props.poll.canClose}
      busy={cards?.pending?.messageId === props.messageId}
      error={cards?.errors[props.messageId] ?? null}
      onVote={(ids) => cards?.vote(props.messageId, ids)}
      onRetract={() => cards?.retract(props.messageId)}
      onClose={() => cards?.close(props.messageId)}
    />
  );
}
