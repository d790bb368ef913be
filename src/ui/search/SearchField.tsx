// The search field at the top of the chats list («Поиск»): / focuses it from anywhere on the page; the
// arrow keys and Enter choose among the results, Escape clears; each result is also a button of its own.
import { useEffect, useRef } from 'react';
import './search.css';

export interface SearchFieldProps {
  value: string;
  /** The results are shown (the listbox exists). */
  expanded: boolean;
  /** Index of the result chosen with the arrows, -1 for none. */
  active: number;
  /** Prefix of the results' element ids. */
  idPrefix: string;
  label: string;
  /** / focuses this field (only one field on the page should). */
  shortcut?: boolean;
  autoFocus?: boolean;
  onInput(text: string): void;
  onMove(by: 1 | -1): void;
  onChoose(): void;
  onClear(): void;
  /** Escape in an empty field. */
  onEscapeEmpty?(): void;
  /** The field was focused (the results view's chunk may be fetched now). */
  onFocus?(): void;
}

const typingInto = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

export function SearchField(props: SearchFieldProps) {
  const field = useRef<HTMLInputElement>(null);
  const { shortcut } = props;
  useEffect(() => {
    if (!shortcut) return;
    const onKey = (e: KeyboardEvent) => {
      // Ctrl/⌘+K is the quick switcher's (docs/behaviour.md §10.49).
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !typingInto(e.target);
      if (!slash) return;
      e.preventDefault();
      field.current?.focus();
      field.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [shortcut]);

  return (
    <div className="search-field">
      <input
        ref={field}
        type="search"
        className="input search-input"
        placeholder="Поиск"
        aria-label={props.label}
        aria-controls={props.expanded ? `${props.idPrefix}-results` : undefined}
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        // biome-ignore lint/a11y/noAutofocus: opened on purpose by the user (the conversation's magnifier)
        autoFocus={props.autoFocus}
        value={props.value}
        data-testid={`${props.idPrefix}-field`}
        onFocus={props.onFocus}
        onChange={(e) => props.onInput(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            props.onMove(e.key === 'ArrowDown' ? 1 : -1);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            props.onChoose();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            if (props.value) props.onClear();
            else props.onEscapeEmpty?.();
          }
        }}
      />
    </div>
  );
}
