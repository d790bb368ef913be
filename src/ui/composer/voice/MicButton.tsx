// «Записать голосовое сообщение»: in the send button's place while the composer is empty. Hovering or focusing it
// fetches the recorder panel's chunk ahead of the press.
export function MicButton(props: { onStart(): void; onPreload(): void }) {
  return (
    <button
      type="button"
      className="icon-button send"
      aria-label="Записать голосовое сообщение"
      title="Записать голосовое сообщение"
      onClick={() => {
        props.onPreload();
        props.onStart();
      }}
      onPointerEnter={props.onPreload}
      onFocus={props.onPreload}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M12 3a3 3 0 0 1 3 3v6a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3zM6 11a6 6 0 0 0 12 0M12 17v4"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
        />
      </svg>
    </button>
  );
}
