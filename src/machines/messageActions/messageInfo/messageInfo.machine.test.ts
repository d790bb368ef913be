import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { messageInfoMachine } from './messageInfo.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const info = { read: [{ userId: 'u2', readAt: '2026-11-25T10:00:00.000Z' }], unread: ['u3'] };

describeModel({
  name: 'messageInfo',
  machine: messageInfoMachine.provide({ actors: { load: hang } }),
  inputs: [{ messageId: 'm1' }],
  events: {
    'xstate.done.actor.load': () => [{ type: 'xstate.done.actor.load', output: info }],
    'xstate.error.actor.load': () => [{ type: 'xstate.error.actor.load', error: new RequestFailure(403, 'Нельзя') }],
  },
});

describe('message info', () => {
  it('asks for the message it was opened with, and again after «Повторить»', async () => {
    const asked: unknown[] = [];
    let fail = true;
    const actor = createActor(
      messageInfoMachine.provide({
        actors: {
          load: fromPromise(async ({ input }) => {
            asked.push(input);
            if (fail) throw new Error('offline');
            return info;
          }) as never,
        },
      }),
      { input: { messageId: 'm7' } },
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Не удалось загрузить сведения о прочтении');
    fail = false;
    actor.send({ type: 'info.retry' });
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context.info).toEqual(info);
    expect(asked).toEqual([{ messageId: 'm7' }, { messageId: 'm7' }]);
  });
});
