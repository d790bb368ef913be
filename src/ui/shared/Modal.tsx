// A modal dialog: labelled by its title, focus moved inside on open and back where it was on close, Tab kept
// inside, Escape and the backdrop close it. Rendered into <body> so it sits above every pane. The page behind cannot
// take the focus while it is open: a view that focuses itself once its data arrives (a composer, a search field)
// would otherwise carry the keys, Escape included, away from the dialog the person is reading.
import { type ReactNode, useId, useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import './modal.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The open modals' boxes, the last on top: only the top one keeps the focus. */
const stack: HTMLElement[] = [];

/**
 * Whether `target` is on the page behind the modal whose backdrop is `backdrop`: before it in the document and in
 * no dialog of its own (an incoming call, the call's overlay and the picture viewer live in the app's tree and take
 * the focus by right). A popover a dialog opens, and a dialog above, come after the backdrop.
 */
function behind(backdrop: Element, target: Node): boolean {
  if (!(backdrop.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING)) return false;
  if (backdrop.contains(target)) return false;
  return !(target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"]'));
}

export interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the dialog box (its width). */
  className?: string;
}

export function Modal({ title, onClose, children, className }: ModalProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useLayoutEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    // The first control of the content, else the close button.
    const first =
      box.current?.querySelector<HTMLElement>(`.modal-body :is(${FOCUSABLE})`) ??
      box.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? box.current)?.focus();
    const dialog = box.current;
    if (!dialog) return () => previous?.focus?.();
    stack.push(dialog);
    // A control that disappears (an answered request) takes the focus with it: keep it in the dialog.
    const keep = new MutationObserver(() => {
      if (document.activeElement === document.body || document.activeElement === null) dialog.focus();
    });
    keep.observe(dialog, { childList: true, subtree: true });
    // The page behind took the focus: it goes back to where it was in the dialog.
    let last: HTMLElement = first ?? dialog;
    const hold = (e: FocusEvent) => {
      const target = e.target as Node;
      if (dialog.contains(target)) last = target as HTMLElement;
      else if (stack[stack.length - 1] === dialog && dialog.parentElement && behind(dialog.parentElement, target))
        (last.isConnected ? last : dialog).focus();
    };
    document.addEventListener('focusin', hold);
    return () => {
      keep.disconnect();
      document.removeEventListener('focusin', hold);
      stack.splice(stack.indexOf(dialog), 1);
      previous?.focus?.();
    };
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close.current();
      return;
    }
    if (e.key !== 'Tab' || !box.current) return;
    const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden]'));
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the box closes it; Escape does the same from the keyboard
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) close.current();
      }}
    >
      <div
        ref={box}
        className={`modal ${className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="modal-head">
          <h2 id={titleId} className="modal-title">
            {title}
          </h2>
          <button type="button" className="modal-close" aria-label="Закрыть окно" onClick={() => close.current()}>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </header>
        <div className="modal-body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
