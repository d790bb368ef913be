// What counts as one emoji for a reaction: exactly one RGI emoji grapheme (skin tones, ZWJ sequences, flags and
// keycaps included), never plain digits, text, markup or several emoji. Shared by the server's validation and the
// client's picker; no zod here (the client loads none).

/**
 * `\p{RGI_Emoji}` needs the `v` flag (Node 20, Chrome 112): built at run time so older type targets accept it, and
 * on first use: compiling it takes about 20 ms of a desktop's main thread (80 ms on the phone profile), which a module
 * that merely imports this one (the secret chats' registration in the background) must not pay.
 */
let singleEmoji: RegExp | null = null;

/** The longest emoji kept (a family ZWJ sequence with skin tones is about 35 UTF-16 units). */
export const EMOJI_MAX_LENGTH = 64;

export function isSingleEmoji(s: string): boolean {
  if (typeof s !== 'string' || s.length === 0 || s.length > EMOJI_MAX_LENGTH) return false;
  singleEmoji ??= new RegExp('^\\p{RGI_Emoji}$', 'v');
  return singleEmoji.test(s);
}
