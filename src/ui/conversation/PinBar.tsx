// The pinned message under the header (docs/behaviour.md §10.19): the one a click jumps to, then the next older one,
// round; «Открепить» where the user may pin.
export interface PinBarView {
  text: string;
  /** 0 for the newest pin. */
  index: number;
  count: number;
  onJump(): void;
  onUnpin?(): void;
}

export function PinBar(props: PinBarView) {
  const label =
    props.count > 1 ? `Закреплённое сообщение ${props.index + 1} из ${props.count}` : 'Закреплённое сообщение';
  return (
    <div className="pin-bar" data-testid="pin-bar">
      {/* Named by its visible text (WCAG 2.5.3), with a colon for screen readers between the two lines. */}
      <button type="button" className="pin-bar-jump" onClick={props.onJump}>
        <span className="pin-bar-title">{label}</span>
        <span className="visually-hidden">: </span>
        <span className="pin-bar-text">{props.text}</span>
      </button>
      {props.onUnpin && (
        <button
          type="button"
          className="pin-bar-unpin"
          onClick={props.onUnpin}
          aria-label="Открепить"
          title="Открепить"
        >
          ×
        </button>
      )}
    </div>
  );
}
