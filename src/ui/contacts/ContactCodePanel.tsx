// 'Поиск по EBLID' (docs/behaviour.md §2): the four boxes, the user found for them ('Найден по EBLID' with 'Добавить')
// and a short line for nobody found, the search limit, or the outcome of adding.
import { CodeBoxes } from './CodeBoxes';
import type { ContactCodeView } from './useContactCode';
import { UserAvatar } from '../shared/UserAvatar';
import './contacts.css';

export type ContactCodePanelProps = Omit<ContactCodeView, 'onReset'> & { headingLevel?: 3 | 4; compact?: boolean };

export function ContactCodePanel(props: ContactCodePanelProps) {
  const Heading = props.headingLevel === 4 ? 'h4' : 'h3';
  const complete = props.digits.every((d) => /^\d$/.test(d));
  return (
    <section
      className={`code-panel ${props.compact ? 'compact' : ''}`}
      aria-label={props.compact ? 'Поиск по EBLID' : undefined}
    >
      {!props.compact && <Heading className="section-title">Поиск по EBLID</Heading>}
      <CodeBoxes
        digits={props.digits}
        focus={props.focus}
        disabled={props.busy}
        onType={props.onType}
        onBackspace={props.onBackspace}
        onPaste={props.onPaste}
        onFocusBox={props.onFocusBox}
        onSubmit={complete ? props.onAdd : undefined}
      />
      <div className="code-outcome" aria-live="polite">
        {props.searching && <p className="muted">Ищем…</p>}
        {props.result && (
          <div className="person-tile found-tile">
            <UserAvatar user={props.result} size={36} presence />
            <div className="person-text">
              <span className="person-name">{props.result.displayName}</span>
              <span className="person-sub">Найден по EBLID</span>
            </div>
            <button
              type="button"
              className="button primary small"
              disabled={props.busy || !complete}
              onClick={props.onAdd}
            >
              Добавить
            </button>
          </div>
        )}
        {props.notice && (
          <p
            className={props.notice.kind === 'error' ? 'inline-error' : 'inline-note'}
            role={props.notice.kind === 'error' ? 'alert' : 'status'}
          >
            {props.notice.text}
          </p>
        )}
      </div>
    </section>
  );
}
