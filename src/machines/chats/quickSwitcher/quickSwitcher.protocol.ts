// The quick switcher's protocol (docs/behaviour.md §10.49 Keyboard): Ctrl/⌘+K opens a dialog that filters the chats by
// name as one types; ↑/↓ move the highlight, Enter opens the highlighted chat, Escape closes. The view that shows
// the dialog runs one actor while it is open (`useOwnedActor('quickSwitcher')`); its input is the list as it was then.
import type { MachineRef } from '../../shared/machine-ref';

/** A chat as the switcher lists it: the list's order, its title as the list shows it. */
export interface SwitcherChat {
  id: string;
  name: string;
}

export interface QuickSwitcherInput {
  chats: SwitcherChat[];
}

export interface QuickSwitcherContext {
  chats: SwitcherChat[];
  query: string;
  /** The highlighted row among the matches. */
  index: number;
  /** The chat opened (once Enter or a click chose one). */
  chosen: string | null;
}

export type QuickSwitcherEvent =
  | { type: 'switcher.query'; query: string }
  | { type: 'switcher.next' }
  | { type: 'switcher.previous' }
  /** Opens the highlighted chat, or the row given (a click on it). */
  | { type: 'switcher.choose'; index?: number }
  | { type: 'switcher.close' };

export type QuickSwitcherRef = MachineRef<QuickSwitcherContext, QuickSwitcherEvent>;

/** At most this many rows: the list is for a name one is typing, not for reading. */
export const SWITCHER_ROWS = 30;

/** Case, «ё» and spaces at the ends do not matter. */
const fold = (s: string) => s.trim().toLocaleLowerCase('ru').replaceAll('ё', 'е');

/** The chats whose name holds the query (all of them for an empty one), those starting with it first. */
export function switcherMatches(context: Pick<QuickSwitcherContext, 'chats' | 'query'>): SwitcherChat[] {
  const q = fold(context.query);
  if (!q) return context.chats.slice(0, SWITCHER_ROWS);
  const starts: SwitcherChat[] = [];
  const inside: SwitcherChat[] = [];
  for (const chat of context.chats) {
    const name = fold(chat.name);
    if (name.startsWith(q) || name.includes(` ${q}`)) starts.push(chat);
    else if (name.includes(q)) inside.push(chat);
  }
  return [...starts, ...inside].slice(0, SWITCHER_ROWS);
}

/** What the dialog shows. */
export function quickSwitcherView(context: QuickSwitcherContext) {
  const matches = switcherMatches(context);
  return { query: context.query, matches, index: context.index, active: matches[context.index] ?? null };
}

export const SWITCHER_TITLE = 'Перейти к чату';
export const SWITCHER_EMPTY = 'Нет чатов с таким названием';

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface OwnedActors {
    /** The quick switcher (spawned while it is shown). */
    quickSwitcher: QuickSwitcherRef;
  }
}
