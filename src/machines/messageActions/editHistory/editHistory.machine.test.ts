import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { editHistoryMachine } from './editHistory.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const versions = [
  { content: 'стало', at: '2026-11-25T10:05:00.000Z', current: true },
  { content: 'было', at: '2026-11-25T10:00:00.000Z' },
];

describeModel({
  name: 'editHistory',
  machine: editHistoryMachine.provide({ actors: { load: hang } }),
  inputs: [{ messageId: 'm1' }],
  events: {
    'xstate.done.actor.load': () => [{ type: 'xstate.done.actor.load', output: { versions } }],
    'xstate.error.actor.load': () => [
      { type: 'xstate.error.actor.load', error: new RequestFailure(404, 'Сообщение не найдено') },
    ],
  },
});

describe('edit history', () => {
  it('asks for the message it was opened with, again after «Повторить», and again after a new edit', async () => {
    const asked: unknown[] = [];
    let answer: () => Promise<{ versions: typeof versions }> = async () => {
      throw new Error('offline');
    };
    const actor = createActor(
      editHistoryMachine.provide({
        actors: {
          load: fromPromise(async ({ input }) => {
            asked.push(input);
            return answer();
          }) as never,
        },
      }),
      { input: { messageId: 'm7' } },
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Не удалось загрузить историю изменений');
    answer = async () => ({ versions });
    actor.send({ type: 'editHistory.retry' });
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context).toMatchObject({ versions, error: null });
    const newer = [{ content: 'снова', at: '2026-11-25T10:09:00.000Z', current: true }, ...versions.slice(0, 1)];
    answer = async () => ({ versions: newer });
    actor.send({ type: 'editHistory.edited' });
    // The list shown stays while the new one is on its way.
    expect(actor.getSnapshot().context.versions).toEqual(versions);
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context.versions).toEqual(newer);
    expect(asked).toEqual([{ messageId: 'm7' }, { messageId: 'm7' }, { messageId: 'm7' }]);
  });

  it('says what the server refused in its words', async () => {
    const actor = createActor(
      editHistoryMachine.provide({
        actors: {
          load: fromPromise(async () => {
            throw new RequestFailure(404, 'Сообщение не найдено');
          }) as never,
        },
      }),
      { input: { messageId: 'gone' } },
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Сообщение не найдено');
  });
});
