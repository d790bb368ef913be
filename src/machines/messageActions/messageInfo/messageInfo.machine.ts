// The message info actor (protocol: messageInfo.protocol.ts): one request, and «Повторить» after a failure.
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  INFO_FAILED,
  type MessageInfoContext,
  type MessageInfoEffects,
  type MessageInfoEvent,
  type MessageInfoInput,
} from './messageInfo.protocol';

export * from './messageInfo.protocol';

export const messageInfoMachine = setup({
  types: {
    context: {} as MessageInfoContext,
    events: {} as MessageInfoEvent,
    input: {} as MessageInfoInput | undefined,
  },
  actors: {
    load: notWired('messageInfo.load') as MessageInfoEffects['load'],
  },
}).createMachine({
  id: 'messageInfo',
  context: ({ input }) => ({ messageId: input?.messageId ?? '', info: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ messageId: context.messageId }),
        onDone: { target: 'loaded', actions: assign({ info: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureMessage(event.error, INFO_FAILED) }),
        },
      },
    },
    loaded: {},
    failed: { on: { 'info.retry': 'loading' } },
  },
});
