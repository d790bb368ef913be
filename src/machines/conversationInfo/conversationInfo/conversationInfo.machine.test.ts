import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { ACTION_FAILED, conversationInfoMachine, type GroupAction, INFO_TAGS } from './conversationInfo.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
type Snap = { context: { selected: string[]; title: string; pending: GroupAction | null } };

describeModel({
  name: 'conversationInfo',
  machine: conversationInfoMachine.provide({ actors: { groupAction: hang } }),
  inputs: [{ conversationId: 'g1' }],
  contextKey: (c) => `${c.pending?.kind ?? ''}|${c.selected.length}|${c.title ? 't' : ''}`,
  events: {
    'info.addOpen': () => [{ type: 'info.addOpen' }],
    'info.toggle': (s) => ((s as Snap).context.selected.length ? [] : [{ type: 'info.toggle', userId: 'u4' }]),
    'info.addConfirm': () => [{ type: 'info.addConfirm' }],
    'info.renameOpen': () => [{ type: 'info.renameOpen', title: '' }],
    'info.titleChanged': (s) => ((s as Snap).context.title ? [] : [{ type: 'info.titleChanged', title: ' Дача ' }]),
    'info.renameConfirm': () => [{ type: 'info.renameConfirm' }],
    'info.role': () => [{ type: 'info.role', userId: 'u2', role: 'ADMIN' }],
    'info.remove': () => [{ type: 'info.remove', userId: 'u2' }],
    'info.leave': () => [{ type: 'info.leave' }],
    'info.setOpen': () => [{ type: 'info.setOpen', open: true }],
    'info.threads': () => [{ type: 'info.threads', enabled: false }],
    'info.confirm': () => [{ type: 'info.confirm' }],
    'info.cancel': () => [{ type: 'info.cancel' }],
    'xstate.done.actor.groupAction': () => [{ type: 'xstate.done.actor.groupAction', output: {} }],
    'xstate.error.actor.groupAction': () => [
      { type: 'xstate.error.actor.groupAction', error: new RequestFailure(403, 'Роли меняет только владелец группы') },
    ],
  },
});

function start(fail?: (a: GroupAction) => Error | null) {
  const sent: GroupAction[] = [];
  const actor = createActor(
    conversationInfoMachine.provide({
      actors: {
        groupAction: fromPromise(async ({ input }: { input: { conversationId: string; action: GroupAction } }) => {
          expect(input.conversationId).toBe('g1');
          sent.push(input.action);
          const err = fail?.(input.action);
          if (err) throw err;
          return {};
        }) as never,
      },
    }),
    { input: { conversationId: 'g1' } },
  ).start();
  const left: unknown[] = [];
  actor.on('info.left', (e) => left.push(e));
  return { actor, sent, left };
}
const idle = (s: { hasTag(t: string): boolean; value: unknown }) => s.value === 'viewing';

describe('conversationInfo with a server', () => {
  it('adds the ticked friends, renames with the trimmed title, and changes a role at once', async () => {
    const { actor, sent } = start();
    actor.send({ type: 'info.addOpen' });
    expect(actor.getSnapshot().hasTag(INFO_TAGS.adding)).toBe(true);
    actor.send({ type: 'info.addConfirm' }); // nobody ticked: nothing happens
    actor.send({ type: 'info.toggle', userId: 'u4' });
    actor.send({ type: 'info.toggle', userId: 'u5' });
    actor.send({ type: 'info.toggle', userId: 'u4' });
    actor.send({ type: 'info.addConfirm' });
    await waitFor(actor, idle);
    actor.send({ type: 'info.renameOpen', title: 'Дача' });
    actor.send({ type: 'info.titleChanged', title: '   ' });
    actor.send({ type: 'info.renameConfirm' }); // empty: stays
    expect(actor.getSnapshot().hasTag(INFO_TAGS.renaming)).toBe(true);
    actor.send({ type: 'info.titleChanged', title: '  Дача 2026 ' });
    actor.send({ type: 'info.renameConfirm' });
    await waitFor(actor, idle);
    actor.send({ type: 'info.role', userId: 'u2', role: 'ADMIN' });
    await waitFor(actor, idle);
    actor.send({ type: 'info.setOpen', open: true });
    await waitFor(actor, idle);
    expect(sent).toEqual([
      { kind: 'add', userIds: ['u5'] },
      { kind: 'rename', title: 'Дача 2026' },
      { kind: 'role', userId: 'u2', role: 'ADMIN' },
      { kind: 'open', open: true },
    ]);
  });

  it('removing and leaving ask first; a cancel sends nothing; leaving ends the actor and says so', async () => {
    const { actor, sent, left } = start();
    actor.send({ type: 'info.remove', userId: 'u2' });
    expect(actor.getSnapshot().hasTag(INFO_TAGS.confirming)).toBe(true);
    actor.send({ type: 'info.cancel' });
    expect(sent).toEqual([]);
    actor.send({ type: 'info.remove', userId: 'u2' });
    actor.send({ type: 'info.confirm' });
    await waitFor(actor, idle);
    actor.send({ type: 'info.leave' });
    actor.send({ type: 'info.confirm' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([{ kind: 'remove', userId: 'u2' }, { kind: 'leave' }]);
    expect(left).toEqual([{ type: 'info.left', conversationId: 'g1' }]);
  });

  it("shows the server's refusal, else a fallback, and stays open", async () => {
    const { actor, left } = start((a) =>
      a.kind === 'role' ? new RequestFailure(403, 'Роли меняет только владелец группы') : new Error('offline'),
    );
    actor.send({ type: 'info.role', userId: 'u2', role: 'OWNER' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Роли меняет только владелец группы');
    actor.send({ type: 'info.leave' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'info.confirm' });
    await waitFor(actor, (s) => s.context.error === ACTION_FAILED);
    expect(actor.getSnapshot().value).toBe('viewing');
    expect(left).toEqual([]);
  });
});
