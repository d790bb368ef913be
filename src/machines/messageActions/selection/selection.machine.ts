// The selection actor (protocol: selection.protocol.ts): two regions, the selection itself and the clipboard.
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { copyStates, copyTextNotWired } from '../../shared/clipboard';
import { COPY_FAILED, type SelectionContext, type SelectionEffects, type SelectionEvent } from './selection.protocol';

export * from './selection.protocol';

export const selectionMachine = setup({
  types: { context: {} as SelectionContext, events: {} as SelectionEvent },
  actors: {
    copyText: copyTextNotWired('selection') as SelectionEffects['copyText'],
  },
  delays: { copiedNote: TIMINGS.successMessageMs },
  guards: {
    lastOne: ({ context, event }) =>
      event.type === 'selection.toggle' && context.ids.length === 1 && context.ids[0] === event.messageId,
  },
  actions: {
    toggle: assign({
      ids: ({ context, event }) => {
        if (event.type !== 'selection.toggle' && event.type !== 'selection.start') return context.ids;
        const id = event.messageId;
        return context.ids.includes(id) ? context.ids.filter((x) => x !== id) : [...context.ids, id];
      },
    }),
    clear: assign({ ids: [] }),
    clearError: assign({ error: null }),
    /** The clipboard refused: why, for the view. */
    copyFailed: assign({ error: ({ event }) => failureMessage('error' in event ? event.error : null, COPY_FAILED) }),
  },
}).createMachine({
  id: 'selection',
  type: 'parallel',
  context: { ids: [], error: null },
  states: {
    mode: {
      initial: 'idle',
      states: {
        idle: { on: { 'selection.start': { target: 'selecting', actions: 'toggle' } } },
        selecting: {
          tags: ['selecting'],
          on: {
            'selection.toggle': [{ guard: 'lastOne', target: 'idle', actions: 'clear' }, { actions: 'toggle' }],
            'selection.clear': { target: 'idle', actions: 'clear' },
            'selection.copy': { target: 'idle', actions: 'clear' },
          },
        },
      },
    },
    // A copy while one is being written starts again with its text (the last one asked for wins).
    clipboard: copyStates({
      event: 'selection.copy',
      tag: 'copied',
      delay: 'copiedNote',
      again: 'restart',
      onCopy: 'clearError',
      onFailed: 'copyFailed',
    }),
  },
});
