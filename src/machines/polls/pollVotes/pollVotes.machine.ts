// The open chat's poll cards (protocol: pollVotes.protocol.ts): idle → sending → idle. The answer's poll is kept by
// message id (the card merges it with the history's by version); a failure is kept for that poll until its next
// request.
import { assign, setup } from 'xstate';
import type { PollInfo } from '../../../contract/entities';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  POLL_VOTE_FAILED,
  POLL_VOTES_TAGS,
  type PollRequest,
  type PollVotesContext,
  type PollVotesEffects,
  type PollVotesEvent,
} from './pollVotes.protocol';

export * from './pollVotes.protocol';

const without = (errors: Record<string, string>, id: string) => {
  const { [id]: _, ...rest } = errors;
  return rest;
};

export const pollVotesMachine = setup({
  types: { context: {} as PollVotesContext, events: {} as PollVotesEvent },
  // Typed by the port its feature's services implement.
  actors: {
    pollRequest: notWired('pollVotes.pollRequest') as PollVotesEffects['pollRequest'],
  },
  actions: {
    start: assign(({ context, event }) => {
      const pending: PollRequest =
        event.type === 'poll.vote'
          ? { kind: 'vote', messageId: event.messageId, optionIds: event.optionIds }
          : { kind: event.type === 'poll.retract' ? 'retract' : 'close', messageId: event.messageId };
      return { pending, errors: without(context.errors, event.messageId) };
    }),
    take: assign(({ context }, poll: PollInfo) =>
      context.pending
        ? { answered: { ...context.answered, [context.pending.messageId]: poll }, pending: null }
        : { pending: null },
    ),
    fail: assign(({ context }, message: string) =>
      context.pending
        ? { errors: { ...context.errors, [context.pending.messageId]: message }, pending: null }
        : { pending: null },
    ),
  },
}).createMachine({
  id: 'pollVotes',
  context: { pending: null, answered: {}, errors: {} },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'poll.vote': { target: 'sending', actions: 'start' },
        'poll.retract': { target: 'sending', actions: 'start' },
        'poll.close': { target: 'sending', actions: 'start' },
      },
    },
    sending: {
      tags: [POLL_VOTES_TAGS.busy],
      invoke: {
        id: 'pollRequest',
        src: 'pollRequest',
        input: ({ context }) => context.pending as PollRequest,
        onDone: { target: 'idle', actions: { type: 'take', params: ({ event }) => event.output.poll } },
        onError: {
          target: 'idle',
          actions: { type: 'fail', params: ({ event }) => failureMessage(event.error, POLL_VOTE_FAILED) },
        },
      },
    },
  },
});
