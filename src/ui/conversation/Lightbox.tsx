// The image lightbox (docs/behaviour.md §2): one image at a time with previous/next (wrapping), close, zoom minus / 100 % /
// plus; Escape closes, ← and → move, + − 0 zoom. A modal dialog: focus moves in, Tab stays inside, and focus goes
// back where it was when it closes.
import { type KeyboardEvent, type MouseEvent, useLayoutEffect, useRef } from 'react';
import type { LightboxItem } from '../../machines/conversation/lightbox/lightbox.protocol';
import { FILE_UNREADABLE } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { useLightbox } from './useLightbox';

export interface LightboxProps {
  items: LightboxItem[];
  index: number;
  onClose(): void;
}

/** Mount it to open the lightbox on `items[index]`; it calls onClose when the user closes it (then unmount it). */
export function Lightbox(props: LightboxProps) {
  return <LightboxView {...useLightbox(props)} />;
}

export interface LightboxViewProps {
  item: LightboxItem | null;
  /** The picture's address (a secret chat's decrypted one; null while it decrypts); the item's own when absent. */
  src?: string | null;
  /** A secret chat's picture this device could not decrypt. */
  unreadable?: boolean;
  index: number;
  count: number;
  /** 1 = 100 %. */
  zoom: number;
  canZoomIn: boolean;
  canZoomOut: boolean;
  next(): void;
  previous(): void;
  zoomIn(): void;
  zoomOut(): void;
  zoomReset(): void;
  close(): void;
}

const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

export function LightboxView(props: LightboxViewProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  // Focus in on open, back to the opener (the image in the message list) on close.
  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const actions: Record<string, () => void> = {
      Escape: props.close,
      ArrowLeft: props.previous,
      ArrowRight: props.next,
      '+': props.zoomIn,
      '=': props.zoomIn,
      '-': props.zoomOut,
      '0': props.zoomReset,
    };
    const action = actions[e.key];
    if (action && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      e.stopPropagation(); // Escape must not also close what is under the lightbox
      action();
      return;
    }
    if (e.key === 'Tab') trapTab(e);
  };

  const trapTab = (e: KeyboardEvent<HTMLDivElement>) => {
    const focusable = [...(dialog.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    if (focusable.length === 0) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = document.activeElement;
    if (e.shiftKey && (active === first || active === dialog.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  };

  // A click on the dark backdrop (not on the image or a control) closes, as in every photo viewer.
  const onBackdrop = (e: MouseEvent<HTMLDivElement>) => {
    if (e.target === e.currentTarget) props.close();
  };

  const several = props.count > 1;
  const position = several ? `${props.index + 1} из ${props.count}` : '';
  const caption = [props.item?.name, position].filter(Boolean).join(' · ');
  const alt = props.item?.name ?? (several ? `Изображение ${position}` : 'Изображение');
  // Russian typography: a no-break space before «%», on the button and in the level alike.
  const percent = `${Math.round(props.zoom * 100)}\u00a0%`;
  const src = props.src === undefined ? (props.item?.url ?? null) : props.src;

  return (
    <div
      ref={dialog}
      className="lightbox"
      role="dialog"
      aria-modal="true"
      aria-label="Просмотр изображения"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-testid="lightbox"
      data-zoom={props.zoom}
      data-index={props.index}
    >
      <div className="lightbox-bar">
        <p className="lightbox-caption">{caption}</p>
        <fieldset className="lightbox-zoom">
          <legend className="lightbox-sr-only">Масштаб</legend>
          {/* aria-disabled, not disabled: a button that disables itself under the pointer would drop the focus */}
          <button
            type="button"
            className="lightbox-button"
            aria-label="Уменьшить"
            aria-disabled={!props.canZoomOut}
            onClick={props.zoomOut}
          >
            −
          </button>
          <button type="button" className="lightbox-button lightbox-reset" onClick={props.zoomReset}>
            {'100\u00a0%'}
          </button>
          <button
            type="button"
            className="lightbox-button"
            aria-label="Увеличить"
            aria-disabled={!props.canZoomIn}
            onClick={props.zoomIn}
          >
            +
          </button>
          <output className="lightbox-level" aria-live="polite" aria-label="Текущий масштаб">
            {percent}
          </output>
        </fieldset>
        <button ref={closeButton} type="button" className="lightbox-button" aria-label="Закрыть" onClick={props.close}>
          ×
        </button>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: the backdrop is a mouse shortcut; Escape and 'Закрыть' are the keyboard way */}
      <div className="lightbox-stage" onClick={onBackdrop}>
        {props.item &&
          (src ? (
            <img
              key={src}
              className="lightbox-image"
              src={src}
              alt={alt}
              style={{ transform: `scale(${props.zoom})` }}
              draggable={false}
            />
          ) : (
            <p className="lightbox-status" role={props.unreadable ? 'alert' : 'status'}>
              {props.unreadable ? FILE_UNREADABLE : 'Расшифровывается…'}
            </p>
          ))}
      </div>
      {several && (
        <>
          <button
            type="button"
            className="lightbox-button lightbox-nav lightbox-prev"
            aria-label="Предыдущее изображение"
            onClick={props.previous}
          >
            ‹
          </button>
          <button
            type="button"
            className="lightbox-button lightbox-nav lightbox-next"
            aria-label="Следующее изображение"
            onClick={props.next}
          >
            ›
          </button>
        </>
      )}
    </div>
  );
}
