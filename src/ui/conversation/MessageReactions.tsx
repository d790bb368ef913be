// Under a bubble: each reaction with its count, one's own highlighted (aria-pressed), who gave it in the tooltip
// and the accessible name; clicking one gives or takes back one's own. The picker (a small button shown on
// hover and focus) offers the fixed set of REACTION_EMOJI.
import { memo, useState } from 'react';
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

/** The small «Реакция» button and the set it opens (Escape or a choice closes it). */
export function ReactionPicker(props: { onPick(emoji: string): void }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="msg-react-picker">
      <button
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
        <fieldset
          className="msg-react-set"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
          }}
        >
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
