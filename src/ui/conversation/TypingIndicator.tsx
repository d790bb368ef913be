// Others typing (docs/behaviour.md §4): who, and three dots of which 1–3 are lit, cycling every 500 ms (the typing actor
// counts them). Not a live region: the app's announcer says «Анна печатает» once per pause (docs/behaviour.md §10.48).
import './conversation.css';

export function TypingIndicator(props: { text: string; dots: number }) {
  return (
    <div className="typing" data-testid="typing">
      {props.text && (
        <>
          <span className="typing-dots" aria-hidden="true" data-dots={props.dots}>
            {[1, 2, 3].map((i) => (
              <i key={i} className={i <= props.dots ? 'lit' : undefined} />
            ))}
          </span>
          <span>{props.text}</span>
        </>
      )}
    </div>
  );
}
