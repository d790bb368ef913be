import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { BodyOf } from '../../../contract/api';
import { RequestFailure } from '../../../contract/failure';
import { message } from '../../../../tests/client/chat-fixtures';
import { POLL_COMPOSER_TAGS, POLL_SEND_FAILED, pollComposerMachine } from './pollComposer.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
type Snap = ReturnType<typeof pollComposerMachine.getInitialSnapshot>;
const editing = (s: Snap) => s.matches('editing');
const drafts = (s: Snap) => s.context.options;

describeModel({
  name: 'pollComposer',
  machine: pollComposerMachine.provide({ actors: { createPoll: hang } }),
  inputs: [{ conversationId: 'g1' }],
  // A few drafts: empty, filled (sendable), and the quiz switch; errors apart.
  contextKey: (c: Snap['context']) =>
    `${c.question ? 'q' : ''}|${c.options.filter(Boolean).length}/${c.options.length}|${c.quiz}|${c.correctOption}|${c.error ? 'e' : ''}`,
  events: {
    'poll.question': (s) => (editing(s) && !s.context.question ? [{ type: 'poll.question', text: 'Куда идём?' }] : []),
    'poll.option': (s) =>
      editing(s) && drafts(s).some((o: string) => !o)
        ? [
            {
              type: 'poll.option',
              index: s.context.options.indexOf(''),
              text: `Вариант ${s.context.options.indexOf('')}`,
            },
          ]
        : [],
    'poll.addOption': (s) => (editing(s) && s.context.options.length === 2 ? [{ type: 'poll.addOption' }] : []),
    'poll.removeOption': (s) =>
      editing(s) && s.context.options.length === 3 ? [{ type: 'poll.removeOption', index: 2 }] : [],
    'poll.multiple': (s) => (editing(s) && !s.context.quiz ? [{ type: 'poll.multiple', on: true }] : []),
    'poll.anonymous': (s) => (editing(s) && !s.context.quiz ? [{ type: 'poll.anonymous', on: true }] : []),
    'poll.quiz': (s) => (editing(s) && !s.context.question ? [{ type: 'poll.quiz', on: !s.context.quiz }] : []),
    'poll.correct': (s) =>
      editing(s) && s.context.quiz && s.context.correctOption === null ? [{ type: 'poll.correct', index: 1 }] : [],
    'poll.explanation': (s) =>
      editing(s) && s.context.quiz && !s.context.question ? [{ type: 'poll.explanation', text: 'Потому что' }] : [],
    'poll.submit': (s) => (s.context.error ? [] : [{ type: 'poll.submit' }]),
    'xstate.done.actor.createPoll': () => [
      { type: 'xstate.done.actor.createPoll', output: { message: message('m1', 'me', 1, { type: 'POLL' }) } },
    ],
    'xstate.error.actor.createPoll': () => [
      { type: 'xstate.error.actor.createPoll', error: new RequestFailure(404, 'Беседа не найдена') },
    ],
  },
});

function start(answer: (body: BodyOf<'createPoll'>) => Promise<unknown>) {
  const sent: BodyOf<'createPoll'>[] = [];
  const actor = createActor(
    pollComposerMachine.provide({
      actors: {
        createPoll: fromPromise(async ({ input }: { input: BodyOf<'createPoll'> }) => {
          sent.push(input);
          return answer(input);
        }) as never,
      },
    }),
    { input: { conversationId: 'g1' } },
  ).start();
  return { actor, sent };
}

describe('pollComposer with a server', () => {
  it('says what keeps a draft from going, in the server’s words, and sends the trimmed quiz', async () => {
    const { actor, sent } = start(async () => ({ message: message('m1', 'me', 1, { type: 'POLL' }) }));
    actor.send({ type: 'poll.submit' });
    expect(actor.getSnapshot().context.error).toBe('Напишите вопрос');
    actor.send({ type: 'poll.question', text: ' Столица Франции? ' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'poll.option', index: 0, text: 'Лион' });
    actor.send({ type: 'poll.option', index: 1, text: 'лион' });
    actor.send({ type: 'poll.submit' });
    expect(actor.getSnapshot().context.error).toBe('Варианты ответа не должны повторяться');
    actor.send({ type: 'poll.option', index: 1, text: ' Париж ' });
    actor.send({ type: 'poll.addOption' });
    actor.send({ type: 'poll.submit' });
    expect(actor.getSnapshot().context.error).toBe('Вариант ответа не может быть пустым');
    actor.send({ type: 'poll.option', index: 2, text: 'Марсель' });
    actor.send({ type: 'poll.multiple', on: true });
    actor.send({ type: 'poll.quiz', on: true });
    expect(actor.getSnapshot().context.multiple).toBe(false);
    actor.send({ type: 'poll.submit' });
    expect(actor.getSnapshot().context.error).toBe('Отметьте правильный ответ');
    actor.send({ type: 'poll.correct', index: 2 });
    // Removing an option above the right one keeps the mark on its text.
    actor.send({ type: 'poll.removeOption', index: 0 });
    expect(actor.getSnapshot().context.correctOption).toBe(1);
    actor.send({ type: 'poll.removeOption', index: 0 });
    expect(actor.getSnapshot().context.options).toHaveLength(2);
    actor.send({ type: 'poll.explanation', text: ' Столица ' });
    actor.send({ type: 'poll.submit' });
    expect(actor.getSnapshot().hasTag(POLL_COMPOSER_TAGS.busy)).toBe(true);
    await waitFor(actor, (s) => s.hasTag(POLL_COMPOSER_TAGS.sent));
    expect(sent).toEqual([
      {
        conversationId: 'g1',
        question: 'Столица Франции?',
        options: ['Париж', 'Марсель'],
        multiple: false,
        anonymous: false,
        correctOption: 1,
        explanation: 'Столица',
      },
    ]);
  });

  it('a failure keeps the draft with the server’s words or a fallback', async () => {
    const failures = [new RequestFailure(400, 'Вариантов ответа — не больше 10'), new Error('сеть')];
    const { actor } = start(async () => {
      throw failures.shift();
    });
    actor.send({ type: 'poll.question', text: 'Обед?' });
    actor.send({ type: 'poll.option', index: 0, text: 'Да' });
    actor.send({ type: 'poll.option', index: 1, text: 'Нет' });
    actor.send({ type: 'poll.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({ question: 'Обед?', error: 'Вариантов ответа — не больше 10' });
    actor.send({ type: 'poll.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error === POLL_SEND_FAILED);
  });
});
