// The «@» list's actor (alive while the pane that calls this is mounted) as plain values and callbacks; a choice
// rewrites the composer's text through `onText` and puts the caret after the name.
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';
import type { MentionCandidate } from '../../machines/composer/mentionPicker/mentionPicker.protocol';

const NONE: MentionCandidate[] = [];

export function useMentionPicker(options: {
  /** Who can be mentioned (a group's other members); empty in a direct chat, where there is no list. */
  members: MentionCandidate[];
  /** Whether «все» (`@все`) is offered: a plaintext group where the user may call everyone. */
  everyone?: boolean;
  text: string;
  onText(text: string): void;
  /** Which composer's list: the pane's, or the thread panel's beside it. */
  id?: 'mentionPicker' | 'threadMentionPicker';
}) {
  const actor = useOwnedActor(options.id ?? 'mentionPicker');
  const latest = useRef(options);
  latest.current = options;
  const caretAfter = useRef<number | null>(null);
  // What was typed last, offered again once the members arrive: a quick «@Бо» typed right after the chat opened
  // must not wait for the next keystroke. (What the actor is told before it runs reaches it as it starts.)
  const typed = useRef<{ text: string; caret: number } | null>(null);
  const memberCount = options.members.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: offered again when the members come, not when the actor does
  useEffect(() => {
    const last = typed.current;
    const { members, everyone, text } = latest.current;
    if (!memberCount || !last || last.text !== text) return;
    actor.send({ type: 'mention.input', ...last, members, everyone: everyone ?? false });
  }, [memberCount]);
  useEffect(() => {
    const sub = actor.on('mention.insert', (e) => {
      const { text, onText } = latest.current;
      onText(text.slice(0, e.start) + e.insert + text.slice(e.end));
      caretAfter.current = e.start + e.insert.length;
    });
    return () => sub.unsubscribe();
  }, [actor]);
  return {
    open: useSelector(actor, (s) => s?.hasTag('open') ?? false),
    candidates: useSelector(actor, (s) => s?.context.candidates ?? NONE),
    index: useSelector(actor, (s) => s?.context.index ?? 0),
    /** Where the caret goes after a choice (read once by the composer). */
    takeCaret: () => {
      const at = caretAfter.current;
      caretAfter.current = null;
      return at;
    },
    input: (text: string, caret: number) => {
      typed.current = { text, caret };
      const { members, everyone } = latest.current;
      if (members.length) actor.send({ type: 'mention.input', text, caret, members, everyone: everyone ?? false });
    },
    next: () => actor.send({ type: 'mention.next' }),
    prev: () => actor.send({ type: 'mention.prev' }),
    choose: (index?: number) => actor.send({ type: 'mention.choose', index }),
    dismiss: () => actor.send({ type: 'mention.dismiss' }),
  };
}

export type MentionPickerView = ReturnType<typeof useMentionPicker>;
