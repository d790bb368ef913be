// The composer's formatting keys (docs/behaviour.md §10.42 Formatting): Ctrl/⌘ with B, I, U, Shift+X, Shift+M,
// Shift+P and K wrap the selection in the markers the send reads as formatting (src/contract/text-markup.ts); the
// same key on a selection already wrapped unwraps it. Keys are read by their place on the keyboard (KeyB…), so
// they work on a Russian layout too.

/** The marker each key wraps the selection in; `link` asks for an address. */
export type FormatKey = '**' | '__' | '++' | '~~' | '`' | '||' | 'link';

export function formatKeyOf(e: {
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): FormatKey | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  if (e.shiftKey) return ({ KeyX: '~~', KeyM: '`', KeyP: '||' } as Record<string, FormatKey>)[e.code] ?? null;
  return ({ KeyB: '**', KeyI: '__', KeyU: '++', KeyK: 'link' } as Record<string, FormatKey>)[e.code] ?? null;
}

/** The toolbar over a selection: each button's marker, its Russian name and what it shows. */
export const FORMAT_BUTTONS: readonly [FormatKey, string, string][] = [
  ['**', 'Жирный', 'Ж'],
  ['__', 'Курсив', 'К'],
  ['++', 'Подчёркнутый', 'Ч'],
  ['~~', 'Зачёркнутый', 'З'],
  ['`', 'Код', 'Код'],
  ['link', 'Ссылка', 'Ссылка'],
  ['||', 'Спойлер', 'Спойлер'],
];

export interface Edited {
  text: string;
  /** The selection afterwards: the same words, inside their markers. */
  start: number;
  end: number;
}

/** The text with [start, end) wrapped in `marker` (or unwrapped, when it already is); empty: the caret between. */
export function wrapSelection(text: string, start: number, end: number, marker: string): Edited {
  const m = marker.length;
  if (text.slice(start - m, start) === marker && text.slice(end, end + m) === marker && start >= m)
    return {
      text: text.slice(0, start - m) + text.slice(start, end) + text.slice(end + m),
      start: start - m,
      end: end - m,
    };
  return {
    text: text.slice(0, start) + marker + text.slice(start, end) + marker + text.slice(end),
    start: start + m,
    end: end + m,
  };
}

/** The selection as a link to `url` ([words](url)); with nothing selected, the address is its own words. */
export function linkSelection(text: string, start: number, end: number, url: string): Edited {
  const words = text.slice(start, end) || url;
  const link = `[${words}](${url})`;
  return { text: text.slice(0, start) + link + text.slice(end), start: start + 1, end: start + 1 + words.length };
}
