// Which panel of the chats page a narrow screen shows (docs/behaviour.md §2: at 768 px or less the list and the
// conversation are two sliding panels). A horizontal swipe of at least 50 px to the left opens the conversation
// if one is selected, to the right returns to the list; the header's back button returns too; selecting a
// conversation opens it, losing the selection shows the list. Wide screens show both panes and ignore this state.
// View-local: ChatsShell runs it; the chats actor only tells it whether something is selected.
import { assign, setup } from 'xstate';
import { LAYOUT } from '../../../contract/limits';
import { type ChatsLayoutContext, type ChatsLayoutEvent, LAYOUT_TAGS } from './chatsLayout.protocol';

export * from './chatsLayout.protocol';

type Swipe = { dx: number; dy: number };
const horizontal = (s: Swipe) => Math.abs(s.dx) >= LAYOUT.swipeMinPx && Math.abs(s.dx) > Math.abs(s.dy);

export const chatsLayoutMachine = setup({
  types: {
    context: {} as ChatsLayoutContext,
    events: {} as ChatsLayoutEvent,
    input: {} as { hasSelection: boolean },
  },
  guards: {
    hasSelection: ({ context }) => context.hasSelection,
    selected: ({ event }) => event.type === 'layout.selectionChanged' && event.hasSelection,
    swipeLeftWithSelection: ({ context, event }) =>
      event.type === 'layout.swiped' && context.hasSelection && horizontal(event) && event.dx < 0,
    swipeRight: ({ event }) => event.type === 'layout.swiped' && horizontal(event) && event.dx > 0,
  },
  actions: {
    noteSelection: assign({
      hasSelection: ({ event }) => (event.type === 'layout.selectionChanged' ? event.hasSelection : false),
    }),
  },
}).createMachine({
  id: 'chatsLayout',
  context: ({ input }) => ({ hasSelection: input.hasSelection }),
  initial: 'starting',
  on: {
    'layout.selectionChanged': [
      { guard: 'selected', target: '.conversation', actions: 'noteSelection' },
      { target: '.list', actions: 'noteSelection' },
    ],
  },
  states: {
    // Opened with a selection already made (e.g. 'chats.open' from the contacts page): the conversation first.
    starting: {
      always: [{ guard: 'hasSelection', target: 'conversation' }, { target: 'list' }],
    },
    list: {
      on: {
        'layout.swiped': { guard: 'swipeLeftWithSelection', target: 'conversation' },
        'layout.open': { guard: 'hasSelection', target: 'conversation' },
      },
    },
    conversation: {
      tags: [LAYOUT_TAGS.conversation],
      on: {
        'layout.swiped': { guard: 'swipeRight', target: 'list' },
        'layout.back': 'list',
      },
    },
  },
});

export type ChatsLayoutMachine = typeof chatsLayoutMachine;
