import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { PollInfo } from '../../../contract/entities';
import { RequestFailure } from '../../../contract/failure';
import { POLL_VOTE_FAILED, POLL_VOTES_TAGS, type PollRequest, pollVotesMachine } from './pollVotes.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const poll = (over: Partial<PollInfo> = {}): PollInfo => ({
  question: 'Куда?',
  options: [
    { id: '0', text: 'Кино', votes: 1, voters: ['me'] },
    { id: '1', text: 'Театр', votes: 0, voters: [] },
  ],
  multiple: false,
  anonymous: false,
  quiz: false,
  closed: false,
  voterCount: 1,
  version: 1,
  mine: ['0'],
  ...over,
});
const answer = (p: PollInfo) => ({ conversationId: 'c1', messageId: 'm1', poll: p });

describeModel({
  name: 'pollVotes',
  machine: pollVotesMachine.provide({ actors: { pollRequest: hang } }),
  contextKey: (c) => `${c.pending?.kind}|${Object.keys(c.answered).length}|${Object.keys(c.errors).length}`,
  events: {
    'poll.vote': () => [{ type: 'poll.vote', messageId: 'm1', optionIds: ['0'] }],
    'poll.retract': () => [{ type: 'poll.retract', messageId: 'm1' }],
    'poll.close': () => [{ type: 'poll.close', messageId: 'm1' }],
    'xstate.done.actor.pollRequest': () => [{ type: 'xstate.done.actor.pollRequest', output: answer(poll()) }],
    'xstate.error.actor.pollRequest': () => [
      {
        type: 'xstate.error.actor.pollRequest',
        error: new RequestFailure(409, 'Опрос завершён, голосовать уже нельзя'),
      },
    ],
  },
});

describe('pollVotes with a server', () => {
  it('one request at a time (a double click sends one); the answer is kept by poll, a failure by poll too', async () => {
    const sent: PollRequest[] = [];
    const results: (PollInfo | Error)[] = [poll(), new Error('сеть'), poll({ closed: true, version: 2 })];
    const actor = createActor(
      pollVotesMachine.provide({
        actors: {
          pollRequest: fromPromise(async ({ input }: { input: PollRequest }) => {
            sent.push(input);
            const next = results.shift();
            if (next instanceof Error) throw next;
            return answer(next as PollInfo);
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'poll.vote', messageId: 'm1', optionIds: ['0'] });
    actor.send({ type: 'poll.vote', messageId: 'm1', optionIds: ['0'] });
    expect(actor.getSnapshot().hasTag(POLL_VOTES_TAGS.busy)).toBe(true);
    await waitFor(actor, (s) => !s.hasTag(POLL_VOTES_TAGS.busy));
    expect(actor.getSnapshot().context.answered.m1?.mine).toEqual(['0']);
    actor.send({ type: 'poll.retract', messageId: 'm1' });
    await waitFor(actor, (s) => !s.hasTag(POLL_VOTES_TAGS.busy));
    expect(actor.getSnapshot().context.errors).toEqual({ m1: POLL_VOTE_FAILED });
    actor.send({ type: 'poll.close', messageId: 'm1' });
    expect(actor.getSnapshot().context.errors).toEqual({});
    await waitFor(actor, (s) => !s.hasTag(POLL_VOTES_TAGS.busy));
    expect(actor.getSnapshot().context.answered.m1?.closed).toBe(true);
    expect(sent).toEqual([
      { kind: 'vote', messageId: 'm1', optionIds: ['0'] },
      { kind: 'retract', messageId: 'm1' },
      { kind: 'close', messageId: 'm1' },
    ]);
  });
});
