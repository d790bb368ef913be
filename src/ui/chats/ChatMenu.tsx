// The list's menu of a tile (mute, the unread mark, pin, archive, clear, delete) and the question before clearing or deleting: shown
// on demand, so apart from the list's chunk (ChatList.tsx loads them lazily).
import { useEffect } from 'react';
import type { ChatAction, ChatSettingsChange } from '../../machines/chats/chatActions/chatActions.protocol';
import type { ChatTileView } from '../conversation/index';

/** The list menu's actions and their confirmation (useChatActions). */
export interface ChatMenuProps {
  busy: boolean;
  error: string | null;
  confirm: { question: string; yes: string } | null;
  run(action: ChatAction): void;
  onConfirm(): void;
  onCancel(): void;
}

/** «Без звука» choices: label → how long (null: for ever). */
export const MUTE_CHOICES: { label: string; ms: number | null }[] = [
  { label: 'На 1 час', ms: 3_600_000 },
  { label: 'На 8 часов', ms: 8 * 3_600_000 },
  { label: 'На 2 дня', ms: 2 * 86_400_000 },
  { label: 'Навсегда', ms: null },
];

/**
 * The question before «Очистить историю» or «Удалить чат» (from the list's menu or «Информация»), and what went
 * wrong: over the page, so it shows whichever pane a phone has in front.
 */
export function ChatActionPrompt(props: ChatMenuProps) {
  if (!props.confirm && !props.error) return null;
  return (
    <div className="chat-prompt">
      {props.confirm ? (
        <div className="chat-confirm" role="alertdialog" aria-label={props.confirm.question}>
          <p>{props.confirm.question}</p>
          <div className="form-actions">
            <button type="button" className="button danger" disabled={props.busy} onClick={props.onConfirm}>
              {props.confirm.yes}
            </button>
            <button type="button" className="button ghost" onClick={props.onCancel}>
              Отмена
            </button>
          </div>
        </div>
      ) : (
        <p className="chat-list-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A tile's menu at the pointer (or under the tile from the keyboard); Escape or a click elsewhere closes it. */
export function ChatMenu(props: ChatTileMenu) {
  const { tile: t, actions, onClose } = props;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      // One layer per Escape (docs/behaviour.md §10.49): a key a layer above took is not this menu's.
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const run = (action: ChatAction) => {
    onClose();
    actions.run(action);
  };
  const settings = (change: ChatSettingsChange) => run({ kind: 'settings', conversationId: t.id, change });
  return (
    <>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the backdrop only closes the menu; Escape does too */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes it (above) */}
      <div className="chat-menu-backdrop" onClick={onClose} />
      <div
        className="chat-menu"
        role="menu"
        aria-label={`Действия с чатом: ${t.title}`}
        style={{ left: props.x, top: props.y }}
      >
        {t.muted ? (
          <MenuItem label="Включить звук" onClick={() => settings({ mutedUntil: null })} autoFocus />
        ) : (
          // biome-ignore lint/a11y/useSemanticElements: a group of menu items inside role="menu" (a fieldset is not one)
          <div role="group" aria-label="Без звука" className="chat-menu-group">
            <span className="chat-menu-label" aria-hidden="true">
              Без звука
            </span>
            {MUTE_CHOICES.map((m, i) => (
              <MenuItem
                key={m.label}
                label={m.label}
                autoFocus={i === 0}
                onClick={() =>
                  settings({ mutedUntil: m.ms === null ? 'forever' : new Date(Date.now() + m.ms).toISOString() })
                }
              />
            ))}
          </div>
        )}
        {/* «Избранное» stays first and cannot be deleted (docs/behaviour.md §10.31): only its sound and history. */}
        <MenuItem
          label={t.markedUnread ? 'Пометить как прочитанное' : 'Пометить как непрочитанное'}
          onClick={() => settings({ markedUnread: !t.markedUnread })}
        />
        {!t.saved && (
          <MenuItem label={t.pinned ? 'Открепить' : 'Закрепить'} onClick={() => settings({ pinned: !t.pinned })} />
        )}
        {!t.saved && (
          <MenuItem label={t.archived ? 'Из архива' : 'В архив'} onClick={() => settings({ archived: !t.archived })} />
        )}
        <MenuItem label="Очистить историю" onClick={() => run({ kind: 'clear', conversationId: t.id })} />
        {!t.saved && (
          <MenuItem label="Удалить чат" danger onClick={() => run({ kind: 'hide', conversationId: t.id })} />
        )}
      </div>
    </>
  );
}

export interface ChatTileMenu {
  tile: ChatTileView;
  x: number;
  y: number;
  actions: ChatMenuProps;
  onClose(): void;
}

function MenuItem(props: { label: string; onClick(): void; autoFocus?: boolean; danger?: boolean }) {
  return (
    <button
      type="button"
      role="menuitem"
      className={`chat-menu-item${props.danger ? ' danger' : ''}`}
      // biome-ignore lint/a11y/noAutofocus: a menu opened from the keyboard starts on its first item
      autoFocus={props.autoFocus}
      onClick={props.onClick}
    >
      {props.label}
    </button>
  );
}
