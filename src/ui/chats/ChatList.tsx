// The list pane 'Чаты' (docs/behaviour.md §2): tiles newest first, each with avatar and presence dot, title, the latest
// message's time and one's own read mark, the spec's line ('{n} непрочитанных' highlighted, a group's participants
// or the peer's presence) and the latest message in words or «Черновик: …»; the footer tiles below.
import { type KeyboardEvent, type MouseEvent, type ReactNode, Suspense, useEffect, useState } from 'react';
import type { ChatTileView } from '../conversation/index';
import { LazySecretTilePreview } from '../secretChats/index';
import { useViewPorts } from '../app/RuntimeContext';
import { ChatAvatar } from '../shared/ChatAvatar';
import { ListRegion } from '../shared/ListRegion';
import { lazyView } from '../shared/lazy-view';
import type { ChatMenuProps, ChatTileMenu } from './ChatMenu';

export type { ChatMenuProps } from './ChatMenu';
import './chats.css';

/** A tile's menu and the question after it load apart (fetched once the list is touched). */
const LazyChatMenu = lazyView<ChatTileMenu>(() => import('./ChatMenu').then((m) => m.ChatMenu));
export const LazyChatActionPrompt = lazyView<ChatMenuProps>(() => import('./ChatMenu').then((m) => m.ChatActionPrompt));

export interface ChatListProps {
  tiles: ChatTileView[];
  loaded: boolean;
  onOpen(conversationId: string): void;
  /** The footer tiles (<ChatsFooter />, the contacts feature's). */
  footer?: ReactNode;
  /** The search field under the title. */
  search?: ReactNode;
  /** «Обсуждения» above the tiles (the threads feature's entry). */
  threads?: ReactNode;
  /** The folder tabs under the title (the folders feature's, while there are folders). */
  tabs?: ReactNode;
  /** Search results, shown instead of the tiles while there are any (or a search is under way). */
  searchResults?: ReactNode;
  /** Each tile's menu (right click, the context-menu key or Shift+F10): mute, pin, archive, clear, delete. */
  menu?: ChatMenuProps;
  /** The pointer or the focus came to the list: a conversation may be opened next (its pane's code is fetched). */
  onIntent?(): void;
}

type OpenMenu = { tile: ChatTileView; x: number; y: number } | null;

export function ChatList(props: ChatListProps) {
  const [menu, setMenu] = useState<OpenMenu>(null);
  const [archive, setArchive] = useState(false);
  const archived = props.tiles.filter((t) => t.archived);
  const shown = archive ? archived : props.tiles.filter((t) => !t.archived);
  // The list is on the screen: what the first screen held back is fetched once it has painted.
  const { firstScreenShown } = useViewPorts();
  useEffect(() => {
    if (props.loaded) firstScreenShown?.();
  }, [props.loaded, firstScreenShown]);
  // The archive view closes by itself once it is empty.
  useEffect(() => {
    if (archive && archived.length === 0) setArchive(false);
  }, [archive, archived.length]);
  const openMenu = props.menu ? (tile: ChatTileView, x: number, y: number) => setMenu({ tile, x, y }) : undefined;
  const intent = () => {
    if (props.menu) void LazyChatMenu.preload();
    props.onIntent?.();
  };
  return (
    <section
      className="chat-list"
      aria-labelledby="chat-list-title"
      onPointerEnter={intent}
      onPointerDown={intent}
      onFocus={intent}
    >
      <div className="chat-list-head">
        <h1 id="chat-list-title">Чаты</h1>
        {props.search}
      </div>
      {props.tabs}
      <div className="chat-list-scroll">
        {!props.searchResults && !archive && props.threads}
        {!props.searchResults &&
          (archive ? (
            <button type="button" className="chat-archive-row" onClick={() => setArchive(false)}>
              ← Архив
            </button>
          ) : (
            archived.length > 0 && (
              <button
                type="button"
                className="chat-archive-row"
                data-testid="archive-row"
                onClick={() => setArchive(true)}
              >
                Архив <span className="chat-archive-count">{archived.length}</span>
              </button>
            )
          ))}
        <ListRegion
          items={shown}
          itemKey={(t) => t.id}
          renderItem={(t) => <ChatTileRow tile={t} onOpen={props.onOpen} onMenu={openMenu} />}
          className="chat-tiles"
          loaded={props.loaded}
          loading={<ChatListSkeleton />}
          empty={<p className="chat-list-empty">Пока нет бесед. Найдите друга по EBLID или создайте беседу.</p>}
          replacement={props.searchResults}
        />
      </div>
      {menu && props.menu && (
        <Suspense fallback={null}>
          <LazyChatMenu {...menu} actions={props.menu} onClose={() => setMenu(null)} />
        </Suspense>
      )}
      {props.footer && <div className="chat-list-footer">{props.footer}</div>}
    </section>
  );
}

function ChatTileRow({
  tile: t,
  onOpen,
  onMenu,
}: {
  tile: ChatTileView;
  onOpen(conversationId: string): void;
  onMenu?(tile: ChatTileView, x: number, y: number): void;
}) {
  const onContextMenu = (e: MouseEvent<HTMLButtonElement>) => {
    if (!onMenu) return;
    e.preventDefault();
    onMenu(t, e.clientX, e.clientY);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (!onMenu || !(e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey))) return;
    e.preventDefault();
    const r = e.currentTarget.getBoundingClientRect();
    onMenu(t, r.left + 24, r.bottom);
  };
  return (
    <li>
      <button
        type="button"
        className={`chat-tile${t.active ? ' active' : ''}`}
        data-conversation-id={t.id}
        // «Избранное» apart from the chats with others, which start after it.
        data-testid={t.saved ? 'saved-tile' : 'chat-tile'}
        data-muted={t.muted ? 'true' : undefined}
        data-pinned={t.pinned ? 'true' : undefined}
        // A group whose call is on: 📞 after the title (chats.css), a few bytes on the first screen.
        data-call={t.call || undefined}
        aria-current={t.active ? 'true' : undefined}
        onClick={() => onOpen(t.id)}
        onContextMenu={onContextMenu}
        onKeyDown={onKeyDown}
      >
        <ChatAvatar avatar={t.avatar} />
        <span className="chat-tile-text">
          <span className="chat-tile-top">
            <span className="chat-tile-title">
              {t.secret && (
                <span className="chat-tile-mark" title="Секретный чат">
                  🔒<span className="sr-only">Секретный чат: </span>
                </span>
              )}
              {t.title}
              {t.pinned && (
                <span className="chat-tile-mark" title="Закреплён">
                  📌<span className="sr-only"> Закреплён</span>
                </span>
              )}
              {t.muted && (
                <span className="chat-tile-mark" title="Без звука">
                  🔕<span className="sr-only"> Без звука</span>
                </span>
              )}
            </span>
            {t.time && (
              <span className="chat-tile-time" data-testid="chat-tile-time">
                {t.mark && (
                  <span className={`chat-tile-read ${t.mark}`} title={t.mark === 'read' ? 'Прочитано' : 'Отправлено'}>
                    {t.mark === 'read' ? '✓' : ''}
                    <span className="sr-only">{t.mark === 'read' ? ' Прочитано' : ' Отправлено'}</span>
                  </span>
                )}
                {t.time}
              </span>
            )}
          </span>
          <span className={`chat-tile-sub${t.unread > 0 ? ' unread' : ''}`} data-testid="chat-tile-subtitle">
            {t.subtitle}
          </span>
          {t.draft ? (
            <span className="chat-tile-preview" data-testid="chat-tile-preview">
              <span className="chat-tile-draft">Черновик:</span> {t.draft}
            </span>
          ) : (
            t.preview && (
              <span className="chat-tile-preview" data-testid="chat-tile-preview">
                {t.previewSender && <span className="chat-tile-sender">{t.previewSender}: </span>}
                {t.encrypted ? (
                  // What this device read of a secret chat's latest message (its code loads with secret chats).
                  <Suspense fallback={t.preview}>
                    <LazySecretTilePreview {...t.encrypted} fallback={t.preview} />
                  </Suspense>
                ) : (
                  t.preview
                )}
              </span>
            )
          )}
        </span>
        {t.mentioned && (
          <span className="chat-badge mention" data-testid="chat-tile-mention" title="Вас упомянули">
            @
          </span>
        )}
        {t.unread > 0 ? (
          <span className={`chat-badge${t.muted ? ' muted' : ''}`} aria-hidden="true">
            {t.unread > 99 ? '99+' : t.unread}
          </span>
        ) : (
          t.markedUnread && <span className="chat-badge dot" data-testid="chat-tile-marked" title="Непрочитанный" />
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
