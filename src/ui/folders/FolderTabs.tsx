// The folder tabs above the chat list: a tab list (arrow keys, Home and End move between the tabs; the chosen one is
// the only one in the Tab order), each tab its name and, when some of its chats have something unread, their number.
import { type KeyboardEvent, useRef } from 'react';

export interface FolderTab {
  /** null: «Все чаты». */
  id: string | null;
  name: string;
  unread: number;
}

export interface FolderTabsProps {
  tabs: FolderTab[];
  active: string | null;
  onSelect(id: string | null): void;
}

/** « непрочитанный чат» / « непрочитанных чата» / « непрочитанных чатов» after the number (screen readers). */
export function unreadChatsWords(n: number): string {
  const tens = n % 100;
  const last = n % 10;
  if (last === 1 && tens !== 11) return ' непрочитанный чат';
  return last >= 2 && last <= 4 && (tens < 12 || tens > 14) ? ' непрочитанных чата' : ' непрочитанных чатов';
}

export function FolderTabs(props: FolderTabsProps) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = props.tabs.findIndex((t) => t.id === props.active);
    const last = props.tabs.length - 1;
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % props.tabs.length
        : e.key === 'ArrowLeft'
          ? (at + last) % props.tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (to === null) return;
    e.preventDefault();
    props.onSelect(props.tabs[to]?.id ?? null);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[to]?.focus();
  };
  return (
    <div className="folder-tabs" role="tablist" aria-label="Папки" ref={list} onKeyDown={onKeyDown}>
      {props.tabs.map((t) => {
        const chosen = t.id === props.active;
        return (
          <button
            key={t.id ?? ''}
            type="button"
            role="tab"
            className="folder-tab"
            data-testid="folder-tab"
            aria-selected={chosen}
            tabIndex={chosen ? 0 : -1}
            onClick={() => props.onSelect(t.id)}
          >
            {t.name}
            {t.unread > 0 && (
              <span className="folder-tab-count" data-testid="folder-tab-count">
                {t.unread}
                <span className="sr-only">{unreadChatsWords(t.unread)}</span>
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
