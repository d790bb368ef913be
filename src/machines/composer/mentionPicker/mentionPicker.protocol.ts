// The «@» list of a group's composer (systemId 'mentionPicker', alive while a conversation pane is shown): typing «@»
// and letters before the caret opens the members whose name or username matches; ↑/↓ move, Enter or Tab or a click
// chooses (the name goes into the text), Escape closes. Views import this module, never mentionPicker.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';

export interface MentionCandidate {
  id: string;
  name: string;
  username: string;
}

export interface MentionPickerContext {
  /** The members offered for the query, best first. */
  candidates: MentionCandidate[];
  /** The highlighted one. */
  index: number;
  /** Where «@» is in the text, and the caret: the part a choice replaces. */
  start: number;
  end: number;
  /** The composer's text as last heard. */
  text: string;
  /** The text closed with Escape: not offered again until it changes. */
  dismissed: string | null;
}

export type MentionPickerEvent =
  /** The composer's text and caret changed; `members` are those who can be mentioned (not the user). */
  | { type: 'mention.input'; text: string; caret: number; members: MentionCandidate[] }
  | { type: 'mention.next' }
  | { type: 'mention.prev' }
  /** Chooses the highlighted member, or the one at `index`. */
  | { type: 'mention.choose'; index?: number }
  | { type: 'mention.dismiss' };

/** For the composer: replace text[start, end) with `insert` and put the caret after it. */
export type MentionPickerEmitted = { type: 'mention.insert'; start: number; end: number; insert: string };

/** Tags: 'open'. */
export type MentionPickerRef = MachineRef<MentionPickerContext, MentionPickerEvent, MentionPickerEmitted>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** The «@» list of the composer (spawned while a conversation pane is shown). */
    mentionPicker: MentionPickerRef;
  }
}
