// «Медиа», «Файлы», «Ссылки», «Голосовые» in «Информация» (docs/behaviour.md §10.46): tabs over one list, newest
// first; scrolling to its end (or «Показать ещё») loads the next page. A photo opens the lightbox on it (with the
// tab's other photos to step through); a file, a link or a voice message shows its message in the chat. Renders
// from props (useChatMedia); the lightbox's own actor lives while it is shown.
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { clock, fileSize } from '../../contract/format';
import {
  CHAT_MEDIA_EMPTY,
  type ChatMediaEntry,
  type ChatMediaKind,
} from '../../machines/conversationInfo/chatMedia/chatMedia.protocol';
import { LazyLightbox } from '../conversation/deferred';
import { type ChatMediaView, useChatMedia } from './useChatMedia';
import './chat-media.css';

/** The tabs with their own actor (alive while «Информация» is open). */
export function ChatMediaSection(props: Parameters<typeof useChatMedia>[0]) {
  return <ChatMedia {...useChatMedia(props)} />;
}

const TABS: { kind: ChatMediaKind; label: string }[] = [
  { kind: 'media', label: 'Медиа' },
  { kind: 'files', label: 'Файлы' },
  { kind: 'links', label: 'Ссылки' },
  { kind: 'voice', label: 'Голосовые' },
];

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' });

export function ChatMedia(props: ChatMediaView) {
  const id = useId();
  // The picture the lightbox is open on (an index into the tab's pictures), null when closed.
  const [viewing, setViewing] = useState<number | null>(null);
  const pictures = props.tab === 'media' ? props.entries.flatMap((e) => e.pictures) : [];
  const onKey = (e: React.KeyboardEvent, at: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = TABS[(at + step + TABS.length) % TABS.length];
    if (next) {
      props.onTab(next.kind);
      document.getElementById(`${id}-${next.kind}`)?.focus();
    }
  };
  return (
    <section className="chat-media" aria-label="Вложения беседы" data-testid="chat-media">
      <div className="chat-media-tabs" role="tablist" aria-label="Вложения">
        {TABS.map((t, i) => (
          <button
            key={t.kind}
            id={`${id}-${t.kind}`}
            type="button"
            role="tab"
            aria-selected={props.tab === t.kind}
            aria-controls={`${id}-panel`}
            tabIndex={props.tab === t.kind ? 0 : -1}
            className="chat-media-tab"
            onClick={() => props.onTab(t.kind)}
            onKeyDown={(e) => onKey(e, i)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        id={`${id}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-${props.tab}`}
        aria-busy={props.loading || props.loadingMore}
        className="chat-media-panel"
        data-testid={`chat-media-${props.tab}`}
      >
        {props.loaded && props.entries.length === 0 && !props.error && (
          <p className="info-note chat-media-empty">{CHAT_MEDIA_EMPTY[props.tab]}</p>
        )}
        {props.tab === 'media' ? (
          <MediaGrid entries={props.entries} onOpen={setViewing} />
        ) : (
          <ul className="chat-media-list">
            {props.entries.map((e) => (
              <Row
                key={e.messageId}
                entry={e}
                kind={props.tab}
                sender={props.names.get(e.senderId) ?? ''}
                onJump={props.onJump}
              />
            ))}
          </ul>
        )}
        {props.loading && (
          <p className="info-note" role="status">
            Загрузка…
          </p>
        )}
        {props.error && (
          <p className="info-error" role="alert">
            {props.error}{' '}
            <button type="button" className="button ghost" onClick={props.onRetry}>
              Повторить
            </button>
          </p>
        )}
        {props.more && !props.error && <MoreOnScroll loading={props.loadingMore} onMore={props.onMore} />}
      </div>
      {viewing !== null && pictures.length > 0 && (
        <Suspense fallback={null}>
          <LazyLightbox
            items={pictures}
            index={Math.min(viewing, pictures.length - 1)}
            onClose={() => setViewing(null)}
          />
        </Suspense>
      )}
    </section>
  );
}

function MediaGrid(props: { entries: ChatMediaEntry[]; onOpen(index: number): void }) {
  let at = 0;
  return (
    <ul className="chat-media-grid">
      {props.entries.flatMap((e) =>
        e.pictures.map((p) => {
          const index = at++;
          const label = `Фото от ${day(e.createdAt)}${p.name ? `: ${p.name}` : ''}`;
          return (
            <li key={`${e.messageId}-${p.url}`}>
              <button type="button" className="chat-media-thumb" aria-label={label} onClick={() => props.onOpen(index)}>
                {/* A secret chat's picture is ciphertext on the server: it is decrypted when opened. */}
                {p.secret ? <span aria-hidden="true">🖼</span> : <img src={p.url} alt="" loading="lazy" />}
              </button>
            </li>
          );
        }),
      )}
    </ul>
  );
}

function Row(props: { entry: ChatMediaEntry; kind: ChatMediaKind; sender: string; onJump(messageId: string): void }) {
  const e = props.entry;
  const meta = [props.sender, day(e.createdAt)].filter(Boolean).join(' · ');
  const title =
    props.kind === 'voice'
      ? `Голосовое сообщение${e.durationMs !== null ? ` ${clock(e.durationMs)}` : ''}`
      : props.kind === 'files'
        ? e.files.map((f) => (f.size !== null ? `${f.name} (${fileSize(f.size)})` : f.name)).join(', ')
        : (e.links[0] ?? '');
  return (
    <li className="chat-media-row">
      <button
        type="button"
        className="chat-media-jump"
        onClick={() => props.onJump(e.messageId)}
        aria-label={`${title}, ${meta}: показать в чате`}
      >
        <span className="chat-media-title">{title}</span>
        {props.kind === 'links' && e.text.trim() !== e.links[0] && <span className="chat-media-text">{e.text}</span>}
        <span className="chat-media-meta">{meta}</span>
      </button>
      {props.kind === 'links' &&
        e.links.map((href) => (
          <a key={href} className="chat-media-link" href={href} target="_blank" rel="noopener noreferrer nofollow">
            {href}
          </a>
        ))}
    </li>
  );
}

/** The list's end: when it scrolls into view the next page loads; the button does the same by hand. */
function MoreOnScroll(props: { loading: boolean; onMore(): void }) {
  const end = useRef<HTMLDivElement>(null);
  const onMore = useRef(props.onMore);
  onMore.current = props.onMore;
  // Watched afresh after each page: an end still in view once a short page came asks for the next one too.
  useEffect(() => {
    const node = end.current;
    if (props.loading || !node || typeof IntersectionObserver === 'undefined') return;
    const seen = new IntersectionObserver((found) => {
      if (found.some((f) => f.isIntersecting)) onMore.current();
    });
    seen.observe(node);
    return () => seen.disconnect();
  }, [props.loading]);
  return (
    <div ref={end} className="chat-media-more">
      {props.loading ? (
        <p className="info-note" role="status">
          Загрузка…
        </p>
      ) : (
        <button type="button" className="button ghost" onClick={props.onMore}>
          Показать ещё
        </button>
      )}
    </div>
  );
}
