// Under a bubble: each reaction with its count, one's own highlighted (aria-pressed), who gave it in the tooltip
// and the accessible name; clicking one gives or takes back one's own. The picker (a small button shown on
// hover and focus) offers the fixed set of REACTION_EMOJI.
import { type KeyboardEvent, memo, useLayoutEffect, useRef, useState } from 'react';
import { REACTION_EMOJI } from '../../contract/limits';
import type { ReactionView } from './view-model';

/** «👍 2: Анна, Борис (ваша реакция)» — what a screen reader says and the tooltip shows. */
export function reactionLabel(r: ReactionView): string {
  return `${r.emoji} ${r.count}: ${r.names.join(', ')}${r.mine ? ' (ваша реакция)' : ''}`;
}

function MessageReactionsView(props: { reactions: ReactionView[]; onToggle(emoji: string): void }) {
  if (props.reactions.length === 0) return null;
  return (
    <ul className="msg-reactions" aria-label="Реакции">
      {props.reactions.map((r) => (
        <li key={r.emoji}>
          <button
            type="button"
            className={`msg-reaction${r.mine ? ' mine' : ''}`}
            aria-pressed={r.mine}
            aria-label={reactionLabel(r)}
            title={r.names.join(', ')}
            data-testid="reaction"
            data-emoji={r.emoji}
            onClick={() => props.onToggle(r.emoji)}
          >
            <span aria-hidden="true">{r.emoji}</span> <span className="msg-reaction-count">{r.count}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export const MessageReactions = memo(MessageReactionsView);

/**
 * The small «Реакция» button and the set it opens (Escape or a choice closes it). From the keyboard the set takes the
 * focus, ←/→ (and ↑/↓, Home/End) move along it, Enter chooses, Escape closes it alone and gives the focus back.
 */
export function ReactionPicker(props: { onPick(emoji: string): void }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const set = useRef<HTMLFieldSetElement>(null);
  useLayoutEffect(() => {
    if (open) set.current?.querySelector<HTMLElement>('button')?.focus();
  }, [open]);
  const onSetKey = (e: KeyboardEvent<HTMLFieldSetElement>) => {
    const choices = [...(set.current?.querySelectorAll<HTMLElement>('button') ?? [])];
    const at = choices.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1 };
    if (e.key === 'Escape') {
      e.preventDefault();
      setOpen(false);
      opener.current?.focus();
    } else if (e.key in moves) {
      e.preventDefault();
      choices[(moves[e.key] + choices.length) % choices.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      (e.key === 'Home' ? choices[0] : choices.at(-1))?.focus();
    }
  };
  return (
    <div className="msg-react-picker">
      <button
        ref={opener}
        type="button"
        className="msg-react-button"
        aria-label="Поставить реакцию"
        aria-expanded={open}
        title="Поставить реакцию"
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">☺</span>
      </button>
      {open && (
        <fieldset ref={set} className="msg-react-set" onKeyDown={onSetKey}>
          <legend className="sr-only">Реакции</legend>
          {REACTION_EMOJI.map((emoji) => (
            <button
              key={emoji}
              type="button"
              className="msg-react-choice"
              aria-label={`Реакция ${emoji}`}
              onClick={() => {
                setOpen(false);
                props.onPick(emoji);
              }}
            >
              {emoji}
            </button>
          ))}
        </fieldset>
      )}
    </div>
  );
}
