// The invite page's actor (protocol: joinGroup.protocol.ts). A link that no longer works (410) or never did (404)
// says so and stays so; any other failure offers «Повторить». Joining opens the group in the chats actor.
import { assign, enqueueActions, setup } from 'xstate';
import { failureMessage, RequestFailure } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  JOIN_FAILED,
  JOIN_TAGS,
  type JoinGroupContext,
  type JoinGroupEffects,
  type JoinGroupEvent,
  type JoinGroupInput,
  PREVIEW_FAILED,
} from './joinGroup.protocol';

export * from './joinGroup.protocol';

const deadLink = (error: unknown) =>
  error instanceof RequestFailure && (error.status === 404 || error.status === 410 || error.status === 400);

export const joinGroupMachine = setup({
  types: { context: {} as JoinGroupContext, events: {} as JoinGroupEvent, input: {} as JoinGroupInput },
  actors: {
    loadPreview: notWired('joinGroup.loadPreview') as JoinGroupEffects['loadPreview'],
    join: notWired('joinGroup.join') as JoinGroupEffects['join'],
  },
  guards: {
    deadLink: ({ event }) => deadLink((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'joinGroup',
  context: ({ input }) => ({ code: input.code, preview: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: [JOIN_TAGS.busy],
      invoke: {
        id: 'loadPreview',
        src: 'loadPreview',
        input: ({ context }) => ({ code: context.code }),
        onDone: { target: 'ready', actions: assign({ preview: ({ event }) => event.output, error: null }) },
        onError: [
          {
            guard: 'deadLink',
            target: 'gone',
            actions: assign({ error: ({ event }) => failureMessage(event.error, PREVIEW_FAILED) }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => failureMessage(event.error, PREVIEW_FAILED) }) },
        ],
      },
    },
    failed: { on: { 'join.retry': 'loading' } },
    gone: { tags: [JOIN_TAGS.gone] },
    ready: { on: { 'join.confirm': { target: 'joining', actions: assign({ error: null }) } } },
    joining: {
      tags: [JOIN_TAGS.busy],
      invoke: {
        id: 'join',
        src: 'join',
        input: ({ context }) => ({ code: context.code }),
        onDone: {
          target: 'joined',
          actions: enqueueActions(({ event, system, enqueue }) => {
            const chats = chatsInbox(system);
            if (chats) enqueue.sendTo(chats, { type: 'chats.open', conversationId: event.output.conversationId });
          }),
        },
        onError: [
          {
            guard: 'deadLink',
            target: 'gone',
            actions: assign({ error: ({ event }) => failureMessage(event.error, JOIN_FAILED) }),
          },
          { target: 'ready', actions: assign({ error: ({ event }) => failureMessage(event.error, JOIN_FAILED) }) },
        ],
      },
    },
    joined: { type: 'final', tags: [JOIN_TAGS.joined] },
  },
});
