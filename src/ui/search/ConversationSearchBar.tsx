// Search within the open conversation, under its header: the field, «N из M» and ↑ (older) / ↓ (newer) stepping
// between the hits; each step jumps the history to that message as a jump to a quote does. Escape in an empty
// field or ✕ closes the bar. Renders from props alone.
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
}

export function counterText(p: Pick<ConversationSearchBarProps, 'status' | 'position' | 'total' | 'more'>): string {
  if (p.status === 'loading') return SEARCH_LOADING;
  if (p.status === 'nothing') return NOTHING_FOUND;
  if (p.status !== 'results') return '';
  return `${p.position} из ${p.total}${p.more ? '+' : ''}`;
}

export function ConversationSearchBar(props: ConversationSearchBarProps) {
  const stepping = props.status === 'results';
  return (
    <div className="conversation-search" data-testid="conversation-search">
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
      {props.status === 'failed' ? (
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
