// The four EBLID boxes as pure functions of what the user did (docs/behaviour.md §5): one digit per box, non-digits
// stripped; typing moves forward, Backspace back, four pasted digits fill every box.
export const CODE_LENGTH = 4;
export type CodeDigits = readonly [string, string, string, string];
export const EMPTY_CODE: CodeDigits = ['', '', '', ''];

export interface CodeBoxes {
  digits: CodeDigits;
  /** The box that should hold the focus. */
  focus: number;
}

const onlyDigits = (text: string) => text.replace(/\D/g, '');
const clampIndex = (i: number) => Math.max(0, Math.min(CODE_LENGTH - 1, i));
const at = (digits: CodeDigits, index: number, digit: string, i: number) => (i === index ? digit : digits[i]);
const withDigit = (digits: CodeDigits, index: number, digit: string): CodeDigits => [
  at(digits, index, digit, 0),
  at(digits, index, digit, 1),
  at(digits, index, digit, 2),
  at(digits, index, digit, 3),
];

/** The code when every box holds one digit, else null. */
export function completeCode(digits: CodeDigits): string | null {
  const code = digits.join('');
  return /^\d{4}$/.test(code) ? code : null;
}

/**
 * What a box's input now holds. An emptied box clears; one digit lands and the focus moves on; several digits
 * (typing over a filled box, autofill, a paste into one box) fill this box and the following ones.
 */
export function typeInto(state: CodeBoxes, index: number, value: string): CodeBoxes {
  const i = clampIndex(index);
  let incoming = onlyDigits(value);
  // Typing over a box that already held a digit: the input holds old + new, keep the new one.
  if (incoming.length === 2 && state.digits[i] && incoming.startsWith(state.digits[i])) incoming = incoming.slice(1);
  if (incoming.length === CODE_LENGTH) return pasteCode(state, incoming);
  if (!incoming) {
    // Nothing digit-like typed: a letter leaves the box as it was; an emptied input clears it.
    return value === '' ? { digits: withDigit(state.digits, i, ''), focus: i } : { ...state, focus: i };
  }
  let digits = state.digits;
  let at = i;
  for (const d of incoming.slice(0, CODE_LENGTH - i)) digits = withDigit(digits, at++, d);
  return { digits, focus: clampIndex(at) };
}

/** Backspace in a box: clears its digit, or in an empty box steps back and clears the previous one. */
export function backspaceIn(state: CodeBoxes, index: number): CodeBoxes {
  const i = clampIndex(index);
  if (state.digits[i]) return { digits: withDigit(state.digits, i, ''), focus: i };
  if (i === 0) return { ...state, focus: 0 };
  return { digits: withDigit(state.digits, i - 1, ''), focus: i - 1 };
}

/** A paste: exactly four digits (after stripping) fill all four boxes; anything else changes nothing. */
export function pasteCode(state: CodeBoxes, text: string): CodeBoxes {
  const code = onlyDigits(text);
  if (code.length !== CODE_LENGTH) return state;
  return { digits: [code[0], code[1], code[2], code[3]], focus: CODE_LENGTH - 1 };
}

export const sameDigits = (a: CodeDigits, b: CodeDigits) => a.every((d, i) => d === b[i]);
