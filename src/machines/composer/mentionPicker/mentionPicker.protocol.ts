// The «@» list of a group's composer (registry line 'mentionPicker', alive while a conversation pane is shown): typing «@»
// and letters before the caret opens the members whose name or username matches («все» first where the user may
// call everyone and the letters begin it); ↑/↓ move, Enter or Tab or a click
// chooses (the name goes into the text), Escape closes. Views import this module, never mentionPicker.machine.ts.
import { MENTION_EVERYONE } from '../../../contract/message-privacy';
import type { MachineRef } from '../../shared/machine-ref';

export interface MentionCandidate {
  id: string;
  name: string;
  username: string;
  /** «все»: `@все`, every member of the group (docs/behaviour.md §10.26, §10.28). */
  everyone?: true;
}

/** «все» in the list: choosing it writes `@все`. */
export const EVERYONE_CANDIDATE: MentionCandidate = {
  id: MENTION_EVERYONE,
  name: MENTION_EVERYONE.slice(1),
  username: MENTION_EVERYONE.slice(1),
  everyone: true,
};

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
  /**
   * The composer's text and caret changed; `members` are those who can be mentioned (not the user), `everyone`
   * whether the user may call the whole group with `@все`.
   */
  | { type: 'mention.input'; text: string; caret: number; members: MentionCandidate[]; everyone?: boolean }
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
    /** The same for the thread panel's composer (spawned while the panel is shown). */
    threadMentionPicker: MentionPickerRef;
  }
}
