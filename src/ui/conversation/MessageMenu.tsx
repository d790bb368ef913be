// The message actions menu (docs/behaviour.md §2, §10.19): the items of menuItems (message-actions.ts), then the quick
// reactions of REACTION_EMOJI and «Другие реакции» (the emoji picker). Opened by a right click (at the pointer), a
// long press, the message's menu button, the context-menu key or Shift+F10. A real menu for keyboards and screen
// readers: focus moves to the first item, arrows move, Escape or Tab closes and focus returns to where it was.
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { REACTION_EMOJI } from '../../contract/limits';
import type { MessageAction, MessageMenuItem } from './message-actions';

export interface MessageMenuProps {
  /** Where to open: the pointer, else under the opener. */
  at: { x: number; y: number } | null;
  opener: HTMLElement;
  items: MessageMenuItem[];
  onAction(action: MessageAction): void;
  onReact(emoji: string): void;
  /** «Другие реакции»: any emoji, from the picker. */
  onMoreReactions?(): void;
  /** Reactions offered (a secret chat's go encrypted: useConversationPane's onReact). */
  reactions?: boolean;
  onClose(): void;
}

export function MessageMenu(props: MessageMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  const { opener, onClose } = props;

  useLayoutEffect(() => {
    const el = menu.current;
    if (!el) return;
    const rect = props.at ? { left: props.at.x, top: props.at.y, bottom: props.at.y } : opener.getBoundingClientRect();
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const left = Math.max(8, Math.min(rect.left, window.innerWidth - w - 8));
    const below = props.at ? rect.top : rect.bottom + 4;
    const top = below + h > window.innerHeight - 8 ? Math.max(8, (props.at ? rect.top : rect.top - 4) - h) : below;
    setPos({ left, top });
    el.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [props.at, opener]);

  useEffect(() => {
    const away = (e: Event) => {
      if (menu.current && !menu.current.contains(e.target as Node)) onClose();
    };
    document.addEventListener('pointerdown', away, true);
    window.addEventListener('resize', onClose);
    return () => {
      document.removeEventListener('pointerdown', away, true);
      window.removeEventListener('resize', onClose);
    };
  }, [onClose]);

  const close = (refocus: boolean) => {
    onClose();
    if (refocus && opener.isConnected) opener.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      (e.key === 'Home' ? items[0] : items.at(-1))?.focus();
    }
  };
  // Quoting and editing move focus to the composer (the caller's job); the others return it to the list.
  const act = (action: () => void, refocus: boolean) => () => {
    close(refocus);
    action();
  };

  return createPortal(
    <div
      ref={menu}
      className="msg-menu"
      role="menu"
      aria-label="Действия с сообщением"
      style={pos ? { left: pos.left, top: pos.top } : { left: -9999, top: -9999 }}
      onKeyDown={onKeyDown}
    >
      {props.items.map((item) => (
        <button
          key={item.action}
          type="button"
          role="menuitem"
          className={`msg-menu-item${item.danger ? ' danger' : ''}`}
          onClick={act(() => props.onAction(item.action), item.action !== 'quote' && item.action !== 'edit')}
        >
          {item.label}
        </button>
      ))}
      {props.reactions !== false && (
        <div className="msg-menu-reactions">
          {REACTION_EMOJI.map((emoji) => (
            <button
              key={emoji}
              type="button"
              role="menuitem"
              className="msg-menu-reaction"
              aria-label={`Реакция ${emoji}`}
              onClick={act(() => props.onReact(emoji), true)}
            >
              {emoji}
            </button>
          ))}
          {props.onMoreReactions && (
            <button
              type="button"
              role="menuitem"
              className="msg-menu-reaction more"
              aria-label="Другие реакции"
              title="Другие реакции"
              onClick={act(props.onMoreReactions, false)}
            >
              ＋
            </button>
          )}
        </div>
      )}
    </div>,
    document.body,
  );
}
