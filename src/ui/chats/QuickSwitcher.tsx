// «Перейти к чату» (Ctrl/⌘+K, docs/behaviour.md §10.49): a field that filters the chats by name, the matches below as
// a listbox the field controls (the highlighted one is its active descendant); ↑/↓ move, Enter opens, Escape closes.
import { useId } from 'react';
import {
  SWITCHER_EMPTY,
  SWITCHER_TITLE,
  type SwitcherChat,
} from '../../machines/chats/quickSwitcher/quickSwitcher.protocol';
import { Modal } from '../shared/Modal';
import { useQuickSwitcher } from './useQuickSwitcher';

export function QuickSwitcher(props: { chats: SwitcherChat[]; onDone(chosen: string | null): void }) {
  return <QuickSwitcherView {...useQuickSwitcher(props.chats, props.onDone)} />;
}

export function QuickSwitcherView(props: ReturnType<typeof useQuickSwitcher>) {
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <Modal title={SWITCHER_TITLE} onClose={props.onClose} className="keys-dialog quick-switcher">
      <input
        type="text"
        className="input"
        role="combobox"
        aria-label="Название чата"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={props.active ? optionId(props.index) : undefined}
        autoComplete="off"
        spellCheck={false}
        value={props.query}
        onChange={(e) => props.onQuery(e.target.value)}
        onKeyDown={(e) => {
          const keys: Record<string, () => void> = {
            ArrowDown: props.onNext,
            ArrowUp: props.onPrevious,
            Enter: () => props.onChoose(),
          };
          const act = keys[e.key];
          if (!act || e.nativeEvent.isComposing) return;
          e.preventDefault();
          act();
        }}
      />
      {props.matches.length === 0 ? (
        <p className="muted" role="status">
          {SWITCHER_EMPTY}
        </p>
      ) : (
        <div id={listId} className="quick-switcher-list" role="listbox" aria-label="Чаты">
          {props.matches.map((chat, i) => (
            <div
              key={chat.id}
              id={optionId(i)}
              role="option"
              tabIndex={-1}
              aria-selected={i === props.index}
              className="quick-switcher-row"
              data-testid="quick-switcher-row"
              // A click chooses without taking the focus from the field (its keys are the keyboard way).
              onMouseDown={(e) => {
                e.preventDefault();
                props.onChoose(i);
              }}
            >
              {chat.name}
            </div>
          ))}
        </div>
      )}
    </Modal>
  );
}
