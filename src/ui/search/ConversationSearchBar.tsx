// Search within the open conversation, under its header: the field, «N из M» and ↑ (older) / ↓ (newer) stepping
// between the hits; each step jumps the history to that message as a jump to a quote does. Escape in an empty
// field or ✕ closes the bar. «Перейти к дате» (the calendar) opens the history at a day's first message, as a step
// does. Renders from props alone.
import { useState } from 'react';
import { NOTHING_FOUND, SEARCH_LOADING } from '../../machines/search/search/search.protocol';
import { SearchField } from './SearchField';
import type { SearchStatus } from './useSearch';
import './search.css';

export interface ConversationSearchBarProps {
  query: string;
  status: SearchStatus;
  /** 1-based position of the hit shown, 0 before the first step. */
  position: number;
  total: number;
  /** More hits exist beyond `total` (loaded as one steps on). */
  more: boolean;
  error: string | null;
  onInput(text: string): void;
  onOlder(): void;
  onNewer(): void;
  onClear(): void;
  onRetry(): void;
  onClose(): void;
  /** The day's first message is being looked for. */
  dating: boolean;
  /** Why the last «Перейти к дате» did not go anywhere. */
  dateError: string | null;
  onJumpToDate(day: string): void;
  /** Opened by the header's «Перейти к дате»: the calendar first. */
  dateFirst?: boolean;
}

export function counterText(p: Pick<ConversationSearchBarProps, 'status' | 'position' | 'total' | 'more'>): string {
  if (p.status === 'loading') return SEARCH_LOADING;
  if (p.status === 'nothing') return NOTHING_FOUND;
  if (p.status !== 'results') return '';
  return `${p.position} из ${p.total}${p.more ? '+' : ''}`;
}

export function ConversationSearchBar(props: ConversationSearchBarProps) {
  const stepping = props.status === 'results';
  const [picking, setPicking] = useState(props.dateFirst ?? false);
  return (
    <div className="conversation-search" data-testid="conversation-search">
      {picking ? (
        <input
          type="date"
          className="input"
          aria-label="Перейти к дате"
          data-testid="conversation-date"
          // biome-ignore lint/a11y/noAutofocus: the calendar button opened it on purpose
          autoFocus
          onChange={(e) => {
            if (!e.target.value) return;
            props.onJumpToDate(e.target.value);
            setPicking(false);
          }}
          onKeyDown={(e) => e.key === 'Escape' && setPicking(false)}
        />
      ) : (
        <SearchField
          value={props.query}
          expanded={false}
          active={-1}
          idPrefix="conversation-search"
          label="Поиск в беседе"
          autoFocus
          onInput={props.onInput}
          onMove={(by) => (by > 0 ? props.onNewer() : props.onOlder())}
          onChoose={props.onOlder}
          onClear={props.onClear}
          onEscapeEmpty={props.onClose}
        />
      )}
      <button
        type="button"
        className="icon-button"
        aria-label="Перейти к дате"
        title="Перейти к дате"
        aria-pressed={picking}
        onClick={() => setPicking(!picking)}
      >
        📅
      </button>
      {props.dating || props.dateError ? (
        <span className="conversation-search-count" role="status" data-testid="conversation-search-count">
          {props.dating ? SEARCH_LOADING : props.dateError}
        </span>
      ) : props.status === 'failed' ? (
        <button type="button" className="button" onClick={props.onRetry} title={props.error ?? undefined}>
          Повторить
        </button>
      ) : (
        <span className="conversation-search-count" role="status" data-testid="conversation-search-count">
          {counterText(props)}
        </span>
      )}
      <button
        type="button"
        className="icon-button"
        aria-label="Предыдущее совпадение"
        title="Предыдущее совпадение"
        disabled={!stepping}
        onClick={props.onOlder}
      >
        ↑
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label="Следующее совпадение"
        title="Следующее совпадение"
        disabled={!stepping}
        onClick={props.onNewer}
      >
        ↓
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label="Закрыть поиск"
        title="Закрыть поиск"
        onClick={props.onClose}
      >
        ✕
      </button>
    </div>
  );
}
