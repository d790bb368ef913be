import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { message } from '../../../../tests/client/chat-fixtures';
import { describeModel } from '../../../../tests/model/harness';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import { RequestFailure } from '../../../contract/failure';
import { EDIT_EMPTY, EDIT_FAILED, messageEditMachine } from './messageEdit.machine';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const saved = { message: message('m1', 'me', 1, { content: 'исправлено', editedAt: '2025-03-01T11:00:00.000Z' }) };

type Snap = ReturnType<typeof messageEditMachine.getInitialSnapshot>;
/** Typing only from the text editing started with (one change per path keeps the states few). */
const untouched = (s: Snap) =>
  s.matches('editing') && s.context.text === s.context.original && s.context.error === null;

describeModel({
  name: 'messageEdit',
  machine: messageEditMachine.provide({ actors: { saveEdit: hang as never } }),
  events: {
    'edit.start': (s) =>
      s.matches('idle') || untouched(s) || s.matches('saving')
        ? [{ type: 'edit.start', messageId: 'm1', content: 'опечтка' }]
        : [],
    'edit.input': (s) =>
      untouched(s)
        ? [
            { type: 'edit.input', text: 'исправлено' },
            { type: 'edit.input', text: '   ' },
          ]
        : [],
    'edit.save': (s) => (s.context.error === null ? [{ type: 'edit.save' }] : []),
    'edit.cancel': (s) => (s.context.error === null || untouched(s) ? [{ type: 'edit.cancel' }] : []),
    // Internal: raised by edit.save with the request (the path takes it through edit.save).
    'edit.submit': () => [],
    'xstate.done.actor.saveEdit': () => [{ type: 'xstate.done.actor.saveEdit', output: saved }],
    'xstate.error.actor.saveEdit': () => [
      {
        type: 'xstate.error.actor.saveEdit',
        error: new RequestFailure(403, 'Изменить сообщение может только отправитель'),
      },
    ],
  },
});

describe('messageEdit with a saving actor', () => {
  function start(save: (body: BodyOf<'editMessage'>) => Promise<ResponseOf<'editMessage'>>) {
    const told: unknown[] = [];
    const parent = createMachine({
      invoke: {
        id: 'edit',
        src: messageEditMachine.provide({ actors: { saveEdit: fromPromise(({ input }) => save(input)) } }),
      },
      on: { 'edit.saved': { actions: ({ event }) => told.push(event) } },
    });
    const root = createActor(parent).start();
    const actor = root.getSnapshot().children.edit!;
    return { actor: actor as ReturnType<typeof createActor<typeof messageEditMachine>>, told };
  }

  it('saves the trimmed text and tells its parent the server message', async () => {
    const bodies: BodyOf<'editMessage'>[] = [];
    const { actor, told } = start(async (body) => {
      bodies.push(body);
      return saved;
    });
    actor.send({ type: 'edit.start', messageId: 'm1', content: 'опечтка' });
    expect(actor.getSnapshot().hasTag('editing')).toBe(true);
    actor.send({ type: 'edit.input', text: '  исправлено ' });
    actor.send({ type: 'edit.save' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(bodies).toEqual([{ messageId: 'm1', content: 'исправлено' }]);
    expect(told).toEqual([{ type: 'edit.saved', message: saved.message }]);
    expect(actor.getSnapshot().context).toEqual({ messageId: null, original: '', text: '', error: null });
  });

  it('sends the markers of the edited text as formatting, left out of the text', async () => {
    const bodies: BodyOf<'editMessage'>[] = [];
    const { actor } = start(async (body) => {
      bodies.push(body);
      return saved;
    });
    actor.send({ type: 'edit.start', messageId: 'm1', content: '**жирный** текст' });
    actor.send({ type: 'edit.input', text: '**жирный** и `код`' });
    actor.send({ type: 'edit.save' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(bodies).toEqual([
      {
        messageId: 'm1',
        content: 'жирный и код',
        entities: [
          { type: 'bold', offset: 0, length: 6 },
          { type: 'code', offset: 9, length: 3 },
        ],
      },
    ]);
  });

  it('keeps the draft with the server message when a save fails, refuses an empty text and closes on the same text', async () => {
    let fail: RequestFailure | null = new RequestFailure(404, 'Сообщение не найдено');
    const { actor, told } = start(async () => {
      if (fail) throw fail;
      return saved;
    });
    actor.send({ type: 'edit.start', messageId: 'm1', content: 'опечтка' });
    actor.send({ type: 'edit.input', text: 'исправлено' });
    actor.send({ type: 'edit.save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({ text: 'исправлено', error: 'Сообщение не найдено' });
    fail = new RequestFailure(null, null);
    actor.send({ type: 'edit.save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error === EDIT_FAILED);
    actor.send({ type: 'edit.input', text: ' ' });
    actor.send({ type: 'edit.save' });
    expect(actor.getSnapshot().context.error).toBe(EDIT_EMPTY);
    actor.send({ type: 'edit.input', text: 'опечтка ' });
    actor.send({ type: 'edit.save' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(told).toEqual([]);
  });
});
