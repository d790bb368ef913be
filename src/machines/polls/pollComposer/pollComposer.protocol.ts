// «Создать опрос» (docs/behaviour.md §10.33 Polls), opened from the composer's «Прикрепить» menu in a group or a
// direct chat (never a secret one): the question, 2–10 options, single or multiple choice, anonymous or not, a quiz
// with its right option and an explanation. Views import this module, never pollComposer.machine.ts.
import type { PromiseActorLogic } from 'xstate';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import type { PollDraft } from '../../../contract/poll-draft';
import type { MachineRef } from '../../shared/machine-ref';

export const POLL_SEND_FAILED = 'Не удалось отправить опрос. Попробуйте ещё раз.';

/** The machine's port: the effect it leaves to its feature's services (src/services/polls/polls.effects.ts). */
export interface PollComposerEffects {
  createPoll: PromiseActorLogic<ResponseOf<'createPoll'>, BodyOf<'createPoll'>>;
}

export interface PollComposerInput {
  conversationId: string;
}

export interface PollComposerContext extends PollDraft {
  conversationId: string;
  /** Why the draft cannot go, or why sending failed (the server's words); null otherwise. */
  error: string | null;
}

export type PollComposerEvent =
  | { type: 'poll.question'; text: string }
  | { type: 'poll.option'; index: number; text: string }
  /** «Добавить вариант» (up to 10). */
  | { type: 'poll.addOption' }
  /** «Убрать вариант» (2 stay). */
  | { type: 'poll.removeOption'; index: number }
  | { type: 'poll.multiple'; on: boolean }
  | { type: 'poll.anonymous'; on: boolean }
  /** «Викторина»: single choice with one right option. */
  | { type: 'poll.quiz'; on: boolean }
  | { type: 'poll.correct'; index: number }
  | { type: 'poll.explanation'; text: string }
  /** «Создать». */
  | { type: 'poll.submit' };

/** Tags the view asks: sending, and sent (the dialog closes). */
export const POLL_COMPOSER_TAGS = { busy: 'busy', sent: 'sent' } as const;

export type PollComposerRef = MachineRef<PollComposerContext, PollComposerEvent>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Создать опрос» (spawned while the dialog is open). */
    pollComposer: PollComposerRef;
  }
}
