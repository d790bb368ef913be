// The quick switcher (docs/behaviour.md §10.49 Keyboard): typing filters the chats by name and puts the highlight on
// the first match; ↑/↓ move it and wrap; Enter opens the highlighted chat through the chats actor (the address and the
// panes follow its selection) and ends; Escape ends with nothing opened. With no match Enter does nothing.
import { assign, setup } from 'xstate';
import { chatsInbox } from '../chats/chats.protocol';
import {
  type QuickSwitcherContext,
  type QuickSwitcherEvent,
  type QuickSwitcherInput,
  switcherMatches,
} from './quickSwitcher.protocol';

export * from './quickSwitcher.protocol';

const count = (context: QuickSwitcherContext) => switcherMatches(context).length;
const chosenIndex = (context: QuickSwitcherContext, event: QuickSwitcherEvent) =>
  event.type === 'switcher.choose' && event.index !== undefined ? event.index : context.index;

export const quickSwitcherMachine = setup({
  types: {
    context: {} as QuickSwitcherContext,
    events: {} as QuickSwitcherEvent,
    input: {} as QuickSwitcherInput,
  },
  guards: {
    severalMatches: ({ context }) => count(context) > 1,
    chosenExists: ({ context, event }) => {
      const i = chosenIndex(context, event);
      return i >= 0 && i < count(context);
    },
  },
  actions: {
    step: assign({ index: ({ context }, delta: number) => (context.index + delta + count(context)) % count(context) }),
    choose: assign({
      chosen: ({ context, event }) => switcherMatches(context)[chosenIndex(context, event)]?.id ?? null,
    }),
    openChosen: ({ context, system }) => {
      if (context.chosen) chatsInbox(system)?.send({ type: 'chats.open', conversationId: context.chosen });
    },
  },
}).createMachine({
  id: 'quickSwitcher',
  context: ({ input }) => ({ chats: input.chats, query: '', index: 0, chosen: null }),
  initial: 'open',
  states: {
    open: {
      on: {
        'switcher.query': { actions: assign({ query: ({ event }) => event.query, index: 0 }) },
        'switcher.next': { guard: 'severalMatches', actions: { type: 'step', params: 1 } },
        'switcher.previous': { guard: 'severalMatches', actions: { type: 'step', params: -1 } },
        'switcher.choose': { guard: 'chosenExists', target: 'chosen', actions: ['choose', 'openChosen'] },
        'switcher.close': 'closed',
      },
    },
    chosen: { type: 'final' },
    closed: { type: 'final' },
  },
});

export type QuickSwitcherMachine = typeof quickSwitcherMachine;
