// «История для новых участников» (protocol: historySetting.protocol.ts): shown → saving → shown, or failed with the
// server's words; a new choice while failed tries again, and a choice while saving waits for the answer.
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  HISTORY_FAILED,
  HISTORY_TAGS,
  type HistorySettingContext,
  type HistorySettingEffects,
  type HistorySettingEvent,
  type HistorySettingInput,
} from './historySetting.protocol';

export * from './historySetting.protocol';

export const historySettingMachine = setup({
  types: {
    context: {} as HistorySettingContext,
    events: {} as HistorySettingEvent,
    input: {} as HistorySettingInput,
  },
  actors: {
    saveHistory: notWired('historySetting.saveHistory') as HistorySettingEffects['saveHistory'],
  },
  actions: {
    choose: assign({ choice: (_, visible: boolean) => visible, error: null }),
  },
}).createMachine({
  id: 'historySetting',
  context: ({ input }) => ({ conversationId: input.conversationId, choice: null, error: null }),
  initial: 'shown',
  states: {
    shown: {
      on: {
        'history.set': { target: 'saving', actions: { type: 'choose', params: ({ event }) => event.visible } },
      },
    },
    saving: {
      tags: [HISTORY_TAGS.saving],
      invoke: {
        id: 'saveHistory',
        src: 'saveHistory',
        input: ({ context }) => ({ conversationId: context.conversationId, visible: context.choice ?? true }),
        onDone: { target: 'shown', actions: assign({ choice: null }) },
        onError: {
          target: 'failed',
          actions: assign({ choice: null, error: ({ event }) => failureMessage(event.error, HISTORY_FAILED) }),
        },
      },
    },
    failed: {
      tags: [HISTORY_TAGS.failed],
      on: {
        'history.set': { target: 'saving', actions: { type: 'choose', params: ({ event }) => event.visible } },
        'history.dismiss': { target: 'shown', actions: assign({ error: null }) },
      },
    },
  },
});
