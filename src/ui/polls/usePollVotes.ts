// The open chat's poll cards (the pollVotes actor, alive while the chat is shown) as plain values and callbacks,
// handed to the cards through PollCardsContext.
import { useSelector } from '@xstate/react';
import { createContext, useContext, useMemo } from 'react';
import type { PollInfo } from '../../contract/entities';
import type { PollRequest } from '../../machines/polls/pollVotes/pollVotes.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const NONE: Record<string, never> = {};

export function usePollVotes() {
  const actor = useOwnedActor('pollVotes');
  const pending = useSelector(actor, (s) => s?.context.pending ?? null);
  const answered = useSelector(actor, (s) => s?.context.answered ?? (NONE as Record<string, PollInfo>));
  const errors = useSelector(actor, (s) => s?.context.errors ?? (NONE as Record<string, string>));
  return useMemo(
    () => ({
      pending: pending as PollRequest | null,
      answered,
      errors,
      vote: (messageId: string, optionIds: string[]) => actor.send({ type: 'poll.vote', messageId, optionIds }),
      retract: (messageId: string) => actor.send({ type: 'poll.retract', messageId }),
      close: (messageId: string) => actor.send({ type: 'poll.close', messageId }),
    }),
    [actor, pending, answered, errors],
  );
}

export type PollVotesView = ReturnType<typeof usePollVotes>;

export const PollCardsContext = createContext<PollVotesView | null>(null);
export const usePollCards = () => useContext(PollCardsContext);
