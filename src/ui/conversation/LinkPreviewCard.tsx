// The card under a message's first link (docs/behaviour.md §10.30 Link previews): site, title, description and the
// server's copy of the picture, the whole card a link to the page; «Убрать предпросмотр» for the sender. While the
// server fetches the page a quiet placeholder keeps the place; a failed or removed card draws nothing.
import { REMOVE_PREVIEW, type PreviewCardView } from '../../machines/conversation/previewCard/previewCard.protocol';
import { usePreviewCard } from './usePreviewCard';
import './link-preview.css';

/** The page's address when it is http(s) (linkify.ts has the same rule; it loads with the first link, not here). */
function pageHref(url: string): string | null {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? u.href : null;
  } catch {
    return null;
  }
}

export function LinkPreviewCard(props: { view: PreviewCardView; onRemove(): void }) {
  const { view } = props;
  if (view.state === 'none') return null;
  const href = pageHref(view.url);
  if (!href) return null;
  if (view.state === 'loading') {
    return <div className="link-card loading" data-testid="link-card-loading" aria-hidden="true" />;
  }
  const label = view.title ?? view.siteName ?? view.url;
  return (
    <div className="link-card" data-testid="link-card" aria-busy={view.busy || undefined}>
      <a className="link-card-body" href={href} target="_blank" rel="noopener noreferrer nofollow">
        {view.image && (
          <img
            className="link-card-image"
            src={view.image.url}
            alt=""
            width={view.image.width}
            height={view.image.height}
            loading="lazy"
          />
        )}
        {view.siteName && <span className="link-card-site">{view.siteName}</span>}
        <span className="link-card-title">{label}</span>
        {view.description && <span className="link-card-description">{view.description}</span>}
      </a>
      {view.removable && (
        <button type="button" className="link-button link-card-remove" disabled={view.busy} onClick={props.onRemove}>
          {REMOVE_PREVIEW}
        </button>
      )}
      {view.error && (
        <span className="link-card-error" role="alert">
          {view.error}
        </span>
      )}
    </div>
  );
}

/** The card of one message, from its actor. */
export function MessagePreview(props: { messageId: string }) {
  const { view, remove } = usePreviewCard(props.messageId);
  return <LinkPreviewCard view={view} onRemove={remove} />;
}
