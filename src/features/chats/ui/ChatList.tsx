// The list pane 'Чаты' (docs/behaviour.md §2): tiles newest first, each with avatar and presence dot, title and either
// '{n} непрочитанных' (highlighted), a group's participants or the peer's presence; the footer tiles below.
import type { ReactNode } from 'react';
import { ChatAvatar } from '../../../shared/ui/ChatAvatar';
import { ListRegion } from '../../../shared/ui/ListRegion';
import type { ChatTileView } from '../../conversation/ui/index';

export interface ChatListProps {
  tiles: ChatTileView[];
  loaded: boolean;
  onOpen(conversationId: string): void;
  /** The footer tiles (<ChatsFooter />, the contacts feature's). */
  footer?: ReactNode;
  /** The search field under the title. */
  search?: ReactNode;
  /** Search results, shown instead of the tiles while there are any (or a search is under way). */
  searchResults?: ReactNode;
}

export function ChatList(props: ChatListProps) {
  return (
    <section className="chat-list" aria-labelledby="chat-list-title">
      <div className="chat-list-head">
        <h1 id="chat-list-title">Чаты</h1>
        {props.search}
      </div>
      <div className="chat-list-scroll">
        <ListRegion
          items={props.tiles}
          itemKey={(t) => t.id}
          renderItem={(t) => <ChatTileRow tile={t} onOpen={props.onOpen} />}
          className="chat-tiles"
          loaded={props.loaded}
          loading={<ChatListSkeleton />}
          empty={<p className="chat-list-empty">Пока нет бесед. Найдите друга по EBLID или создайте беседу.</p>}
          replacement={props.searchResults}
        />
      </div>
      {props.footer && <div className="chat-list-footer">{props.footer}</div>}
    </section>
  );
}

function ChatTileRow({ tile: t, onOpen }: { tile: ChatTileView; onOpen(conversationId: string): void }) {
  return (
    <li>
      <button
        type="button"
        className={`chat-tile${t.active ? ' active' : ''}`}
        data-conversation-id={t.id}
        data-testid="chat-tile"
        aria-current={t.active ? 'true' : undefined}
        onClick={() => onOpen(t.id)}
      >
        <ChatAvatar avatar={t.avatar} />
        <span className="chat-tile-text">
          <span className="chat-tile-title">{t.title}</span>
          <span className={`chat-tile-sub${t.unread > 0 ? ' unread' : ''}`} data-testid="chat-tile-subtitle">
            {t.subtitle}
          </span>
          {t.preview && (
            <span className="chat-tile-preview" data-testid="chat-tile-preview">
              {t.preview}
            </span>
          )}
        </span>
        {t.unread > 0 && (
          <span className="chat-badge" aria-hidden="true">
            {t.unread > 99 ? '99+' : t.unread}
          </span>
        )}
      </button>
    </li>
  );
}

/** Rows of the tiles' exact geometry while the list loads, so the tiles take their places without moving anything. */
export const SKELETON_ROWS = 6;

function ChatListSkeleton() {
  return (
    <div role="status">
      <span className="sr-only">Загружаем беседы…</span>
      <ul className="chat-tiles" aria-hidden="true">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed set of identical placeholder rows
          <li key={i} className="chat-tile chat-tile-skeleton" data-testid="chat-tile-skeleton">
            <span className="chat-skeleton-avatar" />
            <span className="chat-tile-text">
              <span className="chat-tile-title chat-skeleton-bar" />
              <span className="chat-tile-sub chat-skeleton-bar" />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
