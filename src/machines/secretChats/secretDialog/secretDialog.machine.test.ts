import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { type CreateResult, secretDialogMachine } from './secretDialog.machine';

type CreateInput = { userId: string; memberIds: string[]; title: string | null };
const hang = <O, I>() => fromPromise<O, I>(() => new Promise<never>(() => {}));

describeModel({
  name: 'secretDialog',
  machine: secretDialogMachine.provide({
    actors: { prepare: hang<unknown, { userId: string }>(), create: hang<CreateResult, CreateInput>() },
  }),
  inputs: [{ userId: 'u1' }],
  events: {
    'secretDialog.toggle': (s) =>
      s.context.selected.length < 2
        ? [
            { type: 'secretDialog.toggle', userId: 'f1' },
            { type: 'secretDialog.toggle', userId: 'f2' },
          ]
        : [{ type: 'secretDialog.toggle', userId: 'f1' }],
    'secretDialog.titleChanged': () => [{ type: 'secretDialog.titleChanged', title: 'Дача' }],
    'secretDialog.create': () => [{ type: 'secretDialog.create' }],
    'xstate.done.actor.prepare': () => [{ type: 'xstate.done.actor.prepare', output: undefined }],
    'xstate.error.actor.prepare': () => [{ type: 'xstate.error.actor.prepare', error: new RequestFailure(null, null) }],
    'xstate.done.actor.create': () => [
      { type: 'xstate.done.actor.create', output: { conversationId: 'c1' } },
      { type: 'xstate.done.actor.create', output: { conversationId: null, noDevice: ['f1'] } },
    ],
    'xstate.error.actor.create': () => [
      { type: 'xstate.error.actor.create', error: new RequestFailure(403, 'Можно только с друзьями') },
    ],
  },
});

describe('secretDialog behaviour', () => {
  it('names the friends without a device and creates nothing; a title only for a group', async () => {
    const asked: CreateInput[] = [];
    let answer: CreateResult = { conversationId: null, noDevice: ['f2'] };
    const actor = createActor(
      secretDialogMachine.provide({
        actors: {
          prepare: fromPromise<unknown, { userId: string }>(async () => undefined),
          create: fromPromise<CreateResult, CreateInput>(async ({ input }) => {
            asked.push(input);
            return answer;
          }),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    const created: string[] = [];
    actor.on('secretDialog.created', (e) => created.push(e.conversationId));
    await Promise.resolve();
    actor.send({ type: 'secretDialog.create' });
    expect(actor.getSnapshot().context.error).toBe('Выберите хотя бы одного друга');
    actor.send({ type: 'secretDialog.titleChanged', title: 'Дача' });
    actor.send({ type: 'secretDialog.toggle', userId: 'f2' });
    actor.send({ type: 'secretDialog.create' });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked[0]).toEqual({ userId: 'u1', memberIds: ['f2'], title: null });
    expect(actor.getSnapshot().context.noDevice).toEqual(['f2']);
    expect(created).toEqual([]);
    answer = { conversationId: 'c9' };
    actor.send({ type: 'secretDialog.toggle', userId: 'f3' });
    actor.send({ type: 'secretDialog.create' });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked[1]).toEqual({ userId: 'u1', memberIds: ['f2', 'f3'], title: 'Дача' });
    expect(created).toEqual(['c9']);
    expect(actor.getSnapshot().hasTag('created')).toBe(true);
  });
});
