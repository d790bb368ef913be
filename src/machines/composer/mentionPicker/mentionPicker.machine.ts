// The «@» list (protocol: mentionPicker.protocol.ts). Matching is by the start of the name's words or the username,
// without regard to case (Russian letters included).
import { assign, emit, setup } from 'xstate';
import {
  EVERYONE_CANDIDATE,
  type MentionCandidate,
  type MentionPickerContext,
  type MentionPickerEmitted,
  type MentionPickerEvent,
} from './mentionPicker.protocol';

export * from './mentionPicker.protocol';

/** At most this many members are offered at once. */
export const MENTION_LIST_MAX = 8;

/** «@» at the start or after a space, then up to 32 letters, digits, «_», «.» or «-» right before the caret. */
const TRIGGER = /(^|\s)@([\p{L}\p{N}_.-]{0,32})$/u;

/** The «@» before the caret and what follows it, or null. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const m = TRIGGER.exec(text.slice(0, caret));
  if (!m) return null;
  return { start: caret - m[2].length - 1, query: m[2] };
}

export function matchMembers(members: MentionCandidate[], query: string): MentionCandidate[] {
  const q = query.toLocaleLowerCase('ru');
  const score = (m: MentionCandidate) => {
    const name = m.name.toLocaleLowerCase('ru');
    if (!q || name.startsWith(q)) return 0;
    if (name.split(/\s+/).some((w) => w.startsWith(q))) return 1;
    if (m.username.toLocaleLowerCase('ru').startsWith(q)) return 2;
    return -1;
  };
  return members
    .map((m) => ({ m, s: score(m) }))
    .filter((x) => x.s >= 0)
    .sort((a, b) => a.s - b.s || a.m.name.localeCompare(b.m.name, 'ru'))
    .slice(0, MENTION_LIST_MAX)
    .map((x) => x.m);
}

/** The list for a query: «все» first when the user may use it and the query begins it, then the members. */
export function offered(members: MentionCandidate[], query: string, everyone = false): MentionCandidate[] {
  const found = matchMembers(members, query);
  if (!everyone || !EVERYONE_CANDIDATE.name.startsWith(query.toLocaleLowerCase('ru'))) return found;
  return [EVERYONE_CANDIDATE, ...found].slice(0, MENTION_LIST_MAX);
}

const CLOSED = { candidates: [], index: 0, start: 0, end: 0 };

export const mentionPickerMachine = setup({
  types: {
    context: {} as MentionPickerContext,
    events: {} as MentionPickerEvent,
    emitted: {} as MentionPickerEmitted,
  },
  guards: {
    offers: ({ context, event }) => {
      if (event.type !== 'mention.input' || event.text === context.dismissed) return false;
      const q = mentionQuery(event.text, event.caret);
      return q !== null && offered(event.members, q.query, event.everyone).length > 0;
    },
  },
  actions: {
    take: assign(({ event }) => {
      if (event.type !== 'mention.input') return {};
      const q = mentionQuery(event.text, event.caret);
      if (!q) return { ...CLOSED, text: event.text };
      return {
        candidates: offered(event.members, q.query, event.everyone),
        index: 0,
        start: q.start,
        end: event.caret,
        text: event.text,
      };
    }),
    forget: assign(({ context, event }) => {
      const text = event.type === 'mention.input' ? event.text : context.text;
      return { ...CLOSED, text, dismissed: text === context.dismissed ? context.dismissed : null };
    }),
    next: assign({ index: ({ context }) => (context.index + 1) % context.candidates.length }),
    prev: assign({
      index: ({ context }) => (context.index - 1 + context.candidates.length) % context.candidates.length,
    }),
    insert: emit(({ context, event }) => {
      const at = event.type === 'mention.choose' && event.index !== undefined ? event.index : context.index;
      const who = context.candidates[at] ?? context.candidates[0];
      return { type: 'mention.insert' as const, start: context.start, end: context.end, insert: `@${who.name} ` };
    }),
    close: assign(CLOSED),
  },
}).createMachine({
  id: 'mentionPicker',
  context: { ...CLOSED, text: '', dismissed: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'mention.input': [{ guard: 'offers', target: 'open', actions: 'take' }, { actions: 'forget' }],
      },
    },
    open: {
      tags: ['open'],
      on: {
        'mention.input': [
          { guard: 'offers', actions: 'take' },
          { target: 'idle', actions: 'forget' },
        ],
        'mention.next': { actions: 'next' },
        'mention.prev': { actions: 'prev' },
        'mention.choose': { target: 'idle', actions: ['insert', 'close'] },
        // Not offered again for the same text (a new keystroke may offer it again).
        'mention.dismiss': {
          target: 'idle',
          actions: [assign(({ context }) => ({ dismissed: context.text })), 'close'],
        },
      },
    },
  },
});
