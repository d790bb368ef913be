import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { LIMITS } from '../../../contract/limits';
import { forwardPickerMachine } from './forwardPicker.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;

describeModel({
  name: 'forwardPicker',
  machine: forwardPickerMachine.provide({ actors: { forward: hang } }),
  inputs: [{ messageIds: ['m1', 'm2'] }],
  events: {
    'forward.query': () => [{ type: 'forward.query', query: 'бор' }],
    'forward.toggle': (s) =>
      s.context.chosen.length < 2 && !s.context.query
        ? [
            { type: 'forward.toggle', conversationId: 'c1' },
            { type: 'forward.toggle', conversationId: 'c2' },
          ]
        : [],
    'xstate.done.actor.forward': () => [{ type: 'xstate.done.actor.forward', output: { messages: [] } }],
    'xstate.error.actor.forward': () => [
      { type: 'xstate.error.actor.forward', error: new RequestFailure(404, 'Беседа не найдена') },
    ],
  },
});

function start(fail = false) {
  const sent: unknown[] = [];
  const heard: unknown[] = [];
  const chats = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
  const root = createActor(
    createMachine({
      invoke: [
        { id: 'chats', systemId: 'chats', src: chats },
        {
          id: 'forwardPicker',
          systemId: 'forwardPicker',
          input: { messageIds: ['m1', 'm2'] },
          src: forwardPickerMachine.provide({
            actors: {
              forward: fromPromise(async ({ input }) => {
                sent.push(input);
                if (fail) throw new RequestFailure(404, 'Беседа не найдена');
                return { messages: [] };
              }) as never,
            },
          }),
        },
      ],
    }),
  ).start();
  return { actor: root.system.get('forwardPicker'), sent, heard };
}

describe('forward picker', () => {
  it('sends both messages to both chats in one request; to one chat it opens it', async () => {
    const two = start();
    two.actor.send({ type: 'forward.send' });
    expect(two.sent).toEqual([]);
    two.actor.send({ type: 'forward.toggle', conversationId: 'c1' });
    two.actor.send({ type: 'forward.toggle', conversationId: 'c2' });
    two.actor.send({ type: 'forward.send' });
    await waitFor(two.actor, (s) => s.hasTag('done'));
    expect(two.sent).toEqual([{ messageIds: ['m1', 'm2'], conversationIds: ['c1', 'c2'] }]);
    expect(two.heard).toEqual([]);
    const one = start();
    one.actor.send({ type: 'forward.toggle', conversationId: 'c2' });
    one.actor.send({ type: 'forward.send' });
    await waitFor(one.actor, (s) => s.hasTag('done'));
    expect(one.heard).toEqual([{ type: 'chats.open', conversationId: 'c2' }]);
  });

  it('a refusal keeps the choice and says why; no more than the limit of chats', async () => {
    const { actor } = start(true);
    for (let i = 0; i < LIMITS.forwardTargetsMax + 2; i++)
      actor.send({ type: 'forward.toggle', conversationId: `c${i}` });
    expect(actor.getSnapshot().context.chosen).toHaveLength(LIMITS.forwardTargetsMax);
    actor.send({ type: 'forward.send' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Беседа не найдена');
    expect(actor.getSnapshot().context.chosen).toHaveLength(LIMITS.forwardTargetsMax);
  });
});
