// The polls feature's effects: making a poll, and a card's vote, retraction or closing, each one request over the
// API client.
import { fromPromise } from 'xstate';
import type { BodyOf, ResponseOf } from '../../contract/api';
import type { PollComposerEffects } from '../../machines/polls/pollComposer/pollComposer.protocol';
import { pollComposerMachine } from '../../machines/polls/pollComposer/pollComposer.machine';
import type { PollRequest, PollVotesEffects } from '../../machines/polls/pollVotes/pollVotes.protocol';
import { pollVotesMachine } from '../../machines/polls/pollVotes/pollVotes.machine';
import type { Services } from '../app/services';

export const wirePollComposer = (s: Services) =>
  pollComposerMachine.provide({
    actors: {
      createPoll: fromPromise<ResponseOf<'createPoll'>, BodyOf<'createPoll'>>(({ input }) =>
        s.api.call('createPoll', { body: input }),
      ),
    } satisfies PollComposerEffects,
  });

export const wirePollVotes = (s: Services) =>
  pollVotesMachine.provide({
    actors: {
      pollRequest: fromPromise<ResponseOf<'votePoll'>, PollRequest>(({ input }) =>
        input.kind === 'vote'
          ? s.api.call('votePoll', { body: { messageId: input.messageId, optionIds: input.optionIds } })
          : s.api.call(input.kind === 'retract' ? 'retractVote' : 'closePoll', {
              body: { messageId: input.messageId },
            }),
      ),
    } satisfies PollVotesEffects,
  });
