// The open chat's poll cards (docs/behaviour.md §10.33 Polls): a vote, «Отменить голос» and «Завершить опрос», one
// request at a time (a second click while one is under way does nothing); each answer's poll is kept by message id
// so the card shows it at once, whatever the socket does. Views import this module, never pollVotes.machine.ts.
import type { PromiseActorLogic } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import type { PollInfo } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';

export const POLL_VOTE_FAILED = 'Не удалось проголосовать. Попробуйте ещё раз.';

export type PollRequest =
  | { kind: 'vote'; messageId: string; optionIds: string[] }
  | { kind: 'retract'; messageId: string }
  | { kind: 'close'; messageId: string };

/** The machine's port: the effect it leaves to its feature's services (src/services/polls/polls.effects.ts). */
export interface PollVotesEffects {
  /** One vote, retraction or closing; the answer is the poll as it stands. */
  pollRequest: PromiseActorLogic<ResponseOf<'votePoll'>, PollRequest>;
}

export interface PollVotesContext {
  /** The request under way, null when none. */
  pending: PollRequest | null;
  /** The polls as the server answered them, by message id. */
  answered: Record<string, PollInfo>;
  /** What went wrong with a poll's last request (the server's words), by message id. */
  errors: Record<string, string>;
}

export type PollVotesEvent =
  | { type: 'poll.vote'; messageId: string; optionIds: string[] }
  /** «Отменить голос». */
  | { type: 'poll.retract'; messageId: string }
  /** «Завершить опрос». */
  | { type: 'poll.close'; messageId: string };

export const POLL_VOTES_TAGS = { busy: 'busy' } as const;

export type PollVotesRef = MachineRef<PollVotesContext, PollVotesEvent>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** The open chat's poll cards (spawned while the chat is shown). */
    pollVotes: PollVotesRef;
  }
}
