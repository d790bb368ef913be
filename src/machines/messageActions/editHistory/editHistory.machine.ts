// The edit history actor (protocol: editHistory.protocol.ts): one request, «Повторить» after a failure, and again
// when the message is edited while the dialog is open (the list shown stays until the new one arrives).
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  type EditHistoryContext,
  type EditHistoryEffects,
  type EditHistoryEvent,
  type EditHistoryInput,
  HISTORY_FAILED,
} from './editHistory.protocol';

export * from './editHistory.protocol';

export const editHistoryMachine = setup({
  types: {
    context: {} as EditHistoryContext,
    events: {} as EditHistoryEvent,
    input: {} as EditHistoryInput | undefined,
  },
  actors: {
    load: notWired('editHistory.load') as EditHistoryEffects['load'],
  },
}).createMachine({
  id: 'editHistory',
  context: ({ input }) => ({ messageId: input?.messageId ?? '', versions: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ messageId: context.messageId }),
        onDone: { target: 'loaded', actions: assign({ versions: ({ event }) => event.output.versions, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureMessage(event.error, HISTORY_FAILED) }),
        },
      },
      // An edit while the first answer is on its way: that answer may predate it, so ask again.
      on: { 'editHistory.edited': { target: 'loading', reenter: true } },
    },
    loaded: { on: { 'editHistory.edited': 'loading' } },
    failed: { on: { 'editHistory.retry': 'loading', 'editHistory.edited': 'loading' } },
  },
});
