import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { CREATE_FAILED, groupDialogMachine } from './groupDialog.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
type Snap = { context: { selected: string[]; title: string; error: string | null } };
const forbidden = (message: string) => {
  return new RequestFailure(403, message);
};

describeModel({
  name: 'groupDialog',
  machine: groupDialogMachine.provide({ actors: { createGroup: hang } }),
  events: {
    'group.toggle': (s) => [
      { type: 'group.toggle', userId: 'u2' },
      ...((s as Snap).context.selected.includes('u2') ? [{ type: 'group.toggle', userId: 'u3' }] : []),
    ],
    'group.titleChanged': (s) => ((s as Snap).context.title ? [] : [{ type: 'group.titleChanged', title: ' Дача ' }]),
    'xstate.done.actor.createGroup': () => [
      {
        type: 'xstate.done.actor.createGroup',
        output: { conversation: { id: 'g1', title: 'Дача', isGroup: true, participants: [], messages: [] } },
      },
    ],
    'xstate.error.actor.createGroup': () => [
      { type: 'xstate.error.actor.createGroup', error: forbidden('В беседу можно добавить только друзей') },
    ],
  },
});

describe('group dialog with a resolving actor', () => {
  it('does nothing until someone is ticked; creates with the trimmed title, opens the group and closes', async () => {
    const sent: unknown[] = [];
    const heard: unknown[] = [];
    const dialog = groupDialogMachine.provide({
      actors: {
        createGroup: fromPromise(async ({ input }) => {
          sent.push(input);
          return { conversation: { id: 'g1' } };
        }) as never,
      },
    });
    const chats = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'chats', src: chats, systemId: 'chats' },
          { id: 'group', src: dialog, systemId: 'groupDialog' },
        ],
      }),
    ).start();
    const actor = root.system.get('groupDialog');
    const created: unknown[] = [];
    actor.on('group.created', (e: unknown) => created.push(e));
    actor.send({ type: 'group.create' });
    expect(actor.getSnapshot().value).toEqual({ open: 'editing' });
    actor.send({ type: 'group.titleChanged', title: '  ' });
    actor.send({ type: 'group.toggle', userId: 'u2' });
    actor.send({ type: 'group.toggle', userId: 'u3' });
    actor.send({ type: 'group.toggle', userId: 'u2' });
    actor.send({ type: 'group.toggle', userId: 'u4' });
    actor.send({ type: 'group.create' });
    await waitFor(actor, (s: { value: unknown }) => s.value === 'closed');
    expect(sent).toEqual([{ participantIds: ['u3', 'u4'], title: null, isGroup: true }]);
    expect(heard).toContainEqual({ type: 'chats.open', conversationId: 'g1' });
    expect(created).toEqual([{ type: 'group.created', conversationId: 'g1' }]);
    root.stop();
  });

  it('one friend and no title asks for the direct chat; one friend with a title is a group', async () => {
    const sent: unknown[] = [];
    const dialog = () =>
      createActor(
        groupDialogMachine.provide({
          actors: {
            createGroup: fromPromise(async ({ input }) => {
              sent.push(input);
              return { conversation: { id: 'd1' } };
            }) as never,
          },
        }),
      ).start();
    const direct = dialog();
    direct.send({ type: 'group.toggle', userId: 'u2' });
    direct.send({ type: 'group.create' });
    await waitFor(direct, (s: { value: unknown }) => s.value === 'closed');
    const group = dialog();
    group.send({ type: 'group.toggle', userId: 'u2' });
    group.send({ type: 'group.titleChanged', title: 'Дача' });
    group.send({ type: 'group.create' });
    await waitFor(group, (s: { value: unknown }) => s.value === 'closed');
    expect(sent).toEqual([
      { participantIds: ['u2'], title: null, isGroup: false },
      { participantIds: ['u2'], title: 'Дача', isGroup: true },
    ]);
  });

  it('a refused group shows the server message, else a fallback, and keeps the choices', async () => {
    const actor = createActor(
      groupDialogMachine.provide({
        actors: {
          createGroup: fromPromise(async ({ input }) => {
            throw (input as { title: string | null }).title
              ? forbidden('В беседу можно добавить только друзей')
              : new Error('x');
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'group.toggle', userId: 'u2' });
    actor.send({ type: 'group.titleChanged', title: 'Дача' });
    actor.send({ type: 'group.create' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      selected: ['u2'],
      error: 'В беседу можно добавить только друзей',
    });
    actor.send({ type: 'group.titleChanged', title: '' });
    actor.send({ type: 'group.create' });
    await waitFor(actor, (s) => s.context.error === CREATE_FAILED);
  });
});
