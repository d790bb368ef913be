// «Создать опрос»'s actor (alive while the dialog is open) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { POLL_COMPOSER_TAGS } from '../../machines/polls/pollComposer/pollComposer.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const NO_OPTIONS = ['', ''];

export function usePollComposer(conversationId: string, onDone: () => void) {
  const actor = useOwnedActor('pollComposer', { conversationId });
  const sent = useSelector(actor, (s) => s?.hasTag(POLL_COMPOSER_TAGS.sent) ?? false);
  // Sent: the poll is in the chat (message:new), the dialog closes.
  useEffect(() => {
    if (sent) onDone();
  }, [sent, onDone]);
  return {
    // Its fields show the actor's context: text typed before it runs would be built on empty fields.
    ready: useSelector(actor, (s) => s !== undefined),
    question: useSelector(actor, (s) => s?.context.question ?? ''),
    options: useSelector(actor, (s) => s?.context.options ?? NO_OPTIONS),
    multiple: useSelector(actor, (s) => s?.context.multiple ?? false),
    anonymous: useSelector(actor, (s) => s?.context.anonymous ?? false),
    quiz: useSelector(actor, (s) => s?.context.quiz ?? false),
    correctOption: useSelector(actor, (s) => s?.context.correctOption ?? null),
    explanation: useSelector(actor, (s) => s?.context.explanation ?? ''),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    busy: useSelector(actor, (s) => s?.hasTag(POLL_COMPOSER_TAGS.busy) ?? false),
    setQuestion: (text: string) => actor.send({ type: 'poll.question', text }),
    setOption: (index: number, text: string) => actor.send({ type: 'poll.option', index, text }),
    addOption: () => actor.send({ type: 'poll.addOption' }),
    removeOption: (index: number) => actor.send({ type: 'poll.removeOption', index }),
    setMultiple: (on: boolean) => actor.send({ type: 'poll.multiple', on }),
    setAnonymous: (on: boolean) => actor.send({ type: 'poll.anonymous', on }),
    setQuiz: (on: boolean) => actor.send({ type: 'poll.quiz', on }),
    setCorrect: (index: number) => actor.send({ type: 'poll.correct', index }),
    setExplanation: (text: string) => actor.send({ type: 'poll.explanation', text }),
    submit: () => actor.send({ type: 'poll.submit' }),
  };
}

export type PollComposerView = ReturnType<typeof usePollComposer>;
