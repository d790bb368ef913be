import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { LIMITS } from '../../../contract/limits';
import { forwardPickerMachine } from './forwardPicker.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;

describeModel({
  name: 'forwardPicker',
  machine: forwardPickerMachine.provide({ actors: { forward: hang, openDirect: hang } }),
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
    'forward.togglePerson': (s) =>
      s.context.people.length < 1 && !s.context.query ? [{ type: 'forward.togglePerson', userId: 'u3' }] : [],
    'xstate.done.actor.openDirect': () => [{ type: 'xstate.done.actor.openDirect', output: ['c3'] }],
    'xstate.error.actor.openDirect': () => [
      {
        type: 'xstate.error.actor.openDirect',
        error: new RequestFailure(403, 'Пользователь принимает сообщения только от друзей'),
      },
    ],
    'xstate.done.actor.forward': () => [{ type: 'xstate.done.actor.forward', output: { messages: [] } }],
    'xstate.error.actor.forward': () => [
      { type: 'xstate.error.actor.forward', error: new RequestFailure(404, 'Беседа не найдена') },
    ],
  },
});

function start(fail = false, refuse: string | null = null) {
  const sent: unknown[] = [];
  const opened: unknown[] = [];
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
              openDirect: fromPromise(async ({ input }: { input: { userIds: string[] } }) => {
                opened.push(input);
                if (refuse && input.userIds.includes(refuse))
                  throw new RequestFailure(403, 'Пользователь принимает сообщения только от друзей');
                return input.userIds.map((id) => `direct-${id}`);
              }),
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
  return { actor: root.system.get('forwardPicker'), sent, opened, heard };
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

  it('a person with no chat yet gets their direct chat first, then the copies; to that one person it opens', async () => {
    const two = start();
    two.actor.send({ type: 'forward.toggle', conversationId: 'c1' });
    two.actor.send({ type: 'forward.togglePerson', userId: 'u7' });
    two.actor.send({ type: 'forward.send' });
    await waitFor(two.actor, (s) => s.hasTag('done'));
    expect(two.opened).toEqual([{ userIds: ['u7'] }]);
    expect(two.sent).toEqual([{ messageIds: ['m1', 'm2'], conversationIds: ['c1', 'direct-u7'] }]);
    const one = start();
    one.actor.send({ type: 'forward.togglePerson', userId: 'u7' });
    one.actor.send({ type: 'forward.send' });
    await waitFor(one.actor, (s) => s.hasTag('done'));
    expect(one.heard).toEqual([{ type: 'chats.open', conversationId: 'direct-u7' }]);
  });

  it('a person who does not take messages: nothing is forwarded and the refusal shows in the server words', async () => {
    const { actor, sent } = start(false, 'u7');
    actor.send({ type: 'forward.togglePerson', userId: 'u7' });
    actor.send({ type: 'forward.send' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Пользователь принимает сообщения только от друзей');
    expect(actor.getSnapshot().context.people).toEqual(['u7']);
    expect(sent).toEqual([]);
  });

  it('chats and people share the limit', () => {
    const { actor } = start();
    for (let i = 0; i < LIMITS.forwardTargetsMax - 1; i++)
      actor.send({ type: 'forward.toggle', conversationId: `c${i}` });
    actor.send({ type: 'forward.togglePerson', userId: 'u1' });
    actor.send({ type: 'forward.togglePerson', userId: 'u2' });
    expect(actor.getSnapshot().context.people).toEqual(['u1']);
    actor.send({ type: 'forward.togglePerson', userId: 'u1' });
    expect(actor.getSnapshot().context.people).toEqual([]);
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
