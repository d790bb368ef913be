// The message pane's header (docs/behaviour.md §2): back button on narrow screens, avatar, title, presence
// ('ОНЛАЙН' or the last-seen text) and the call buttons.
import { ChatAvatar } from '../shared/ChatAvatar';
import { ChatsBackButton } from '../shared/chats-shell-context';
import type { HeaderView } from './view-model';
import './conversation.css';

export interface ConversationHeaderProps {
  header: HeaderView;
  onCall(video: boolean): void;
  /** Opens the search within this conversation. */
  onSearch?(): void;
  /** «Перейти к дате»: the search bar at its calendar. */
  onJumpToDate?(): void;
  /** «Запланированные» of this chat (docs/behaviour.md §10.32). */
  onScheduled?(): void;
  /** Opens «Информация» (the title and avatar are its button). */
  onInfo?(): void;
  /** A secret chat's «Проверить шифрование» (the fingerprint of its members' keys). */
  onVerify?(): void;
}

const PHONE =
  'M6.6 3.5h2.7l1.7 4.3-2.1 1.3a10.5 10.5 0 0 0 4.9 4.9l1.3-2.1 4.3 1.7v2.7a2 2 0 0 1-2.2 2A15.6 15.6 0 0 1 4.6 5.7a2 2 0 0 1 2-2.2z';
const MAGNIFIER = 'M10.5 4a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13zm4.8 11.3 4.7 4.7';
const SHIELD = 'M12 3.5l7 2.8v5.2c0 4.3-3 7.7-7 9-4-1.3-7-4.7-7-9V6.3zm-3.2 8.7 2.3 2.3 4.2-4.5';
const CAMERA = 'M3.5 7.5a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-8a2 2 0 0 1-2-2zm12 3.2 5-3v8.6l-5-3';

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}

/** A clock face: «Запланированные». */
const CLOCK = 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2';

export function ConversationHeader(props: ConversationHeaderProps) {
  const { header } = props;
  return (
    <div className="conv-head">
      <ChatsBackButton />
      {props.onInfo ? (
        <button type="button" className="conv-head-avatar" tabIndex={-1} aria-hidden="true" onClick={props.onInfo}>
          <ChatAvatar avatar={header.avatar} size={40} />
        </button>
      ) : (
        <ChatAvatar avatar={header.avatar} size={40} />
      )}
      <div className="conv-head-text">
        <h2 className="conv-title">
          {props.onInfo ? (
            <button type="button" className="conv-title-button" title="Информация" onClick={props.onInfo}>
              {header.title}
            </button>
          ) : (
            header.title
          )}
        </h2>
        {header.customStatus && (
          <p className="conv-custom-status" title={header.customStatus} data-testid="conversation-custom-status">
            {header.customStatus}
          </p>
        )}
        {header.secret && (
          <p className="conv-secret" data-testid="conversation-secret">
            <span aria-hidden="true">🔒 </span>Секретный чат
          </p>
        )}
        <p className={`conv-status${header.online ? ' online' : ''}`} data-testid="conversation-status">
          {header.status}
        </p>
      </div>
      <div className="conv-actions">
        {header.secret && props.onVerify && (
          <button
            type="button"
            className="icon-button"
            aria-label="Проверить шифрование"
            title="Проверить шифрование"
            onClick={props.onVerify}
          >
            <Icon d={SHIELD} />
          </button>
        )}
        {props.onSearch && (
          <button
            type="button"
            className="icon-button"
            aria-label="Искать в беседе"
            title="Искать в беседе"
            onClick={props.onSearch}
          >
            <Icon d={MAGNIFIER} />
          </button>
        )}
        {props.onJumpToDate && (
          <button
            type="button"
            className="icon-button"
            aria-label="Перейти к дате"
            title="Перейти к дате"
            onClick={props.onJumpToDate}
          >
            📅
          </button>
        )}
        {props.onScheduled && (
          <button
            type="button"
            className="icon-button"
            aria-label="Запланированные"
            title="Запланированные"
            onClick={props.onScheduled}
          >
            <Icon d={CLOCK} />
          </button>
        )}
        {/* A secret chat's calls are encrypted end to end with its group's key (docs/secret-chats.md "Calls"). */}
        <button
          type="button"
          className="icon-button"
          aria-label="Позвонить"
          title="Позвонить"
          onClick={() => props.onCall(false)}
        >
          <Icon d={PHONE} />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label="Позвонить с видео"
          title="Позвонить с видео"
          onClick={() => props.onCall(true)}
        >
          <Icon d={CAMERA} />
        </button>
      </div>
    </div>
  );
}
