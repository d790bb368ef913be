// Where the timeline's keyboard focus goes (docs/behaviour.md §10.48): ↑ the previous message, ↓ the next, Home the
// first loaded, End the last; at either end it stays. A focused message no longer drawn (deleted, hidden) counts as
// below the newest, so ↑ and ↓ land on the newest. `ids` are the rows as drawn, oldest first, never empty.
import type { FocusMove } from './conversation.protocol';

export function focusTarget(ids: readonly string[], focusedId: string | null, move: FocusMove): string {
  const last = ids.length - 1;
  const at = focusedId === null ? -1 : ids.indexOf(focusedId);
  if (move === 'first') return ids[0] as string;
  if (move === 'last' || at < 0) return ids[last] as string;
  if (move === 'previous') return ids[Math.max(0, at - 1)] as string;
  return ids[Math.min(last, at + 1)] as string;
}
