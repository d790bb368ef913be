// The one clipboard effect of the app: an actor writing a text that is made from its input (copyText's input is the
// text itself; the invite and reset links are made from their codes and paths).
import { fromPromise } from 'xstate';

/** Writes `text(input)` to the clipboard; a browser that refuses rejects it. */
export const toClipboard = <I>(text: (input: I) => string) =>
  fromPromise<unknown, I>(({ input }) => navigator.clipboard.writeText(text(input)));

/** The machines' `copyText` (src/machines/shared/clipboard.ts). */
export const copyText = toClipboard((input: { text: string }) => input.text);
