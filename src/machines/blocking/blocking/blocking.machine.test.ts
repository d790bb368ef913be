import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { person } from '../../../../tests/client/chat-fixtures';
import { BLOCK_FAILED, BLOCKED_LIST_FAILED, blockingMachine } from './blocking.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const boris = person('u2', 'Борис');

describeModel({
  name: 'blocking',
  machine: blockingMachine.provide({ actors: { loadBlocked: hang, setBlock: hang } }),
  inputs: [undefined, { list: true }],
  events: {
    'blocking.load': () => [{ type: 'blocking.load' }],
    'blocking.block': () => [{ type: 'blocking.block', userId: 'u2' }],
    'blocking.unblock': () => [{ type: 'blocking.unblock', userId: 'u2' }],
    'xstate.done.actor.loadBlocked': () => [{ type: 'xstate.done.actor.loadBlocked', output: [boris] }],
    'xstate.error.actor.loadBlocked': () => [{ type: 'xstate.error.actor.loadBlocked', error: new Error('offline') }],
    'xstate.done.actor.setBlock': () => [{ type: 'xstate.done.actor.setBlock', output: {} }],
    'xstate.error.actor.setBlock': () => [
      { type: 'xstate.error.actor.setBlock', error: new RequestFailure(404, 'Пользователь не найден') },
    ],
  },
});

function start(opts: { failSet?: boolean; failLoad?: boolean } = {}) {
  const sent: unknown[] = [];
  const heard: unknown[] = [];
  let blocked: string[] = [];
  const chats = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
  const root = createActor(
    createMachine({
      invoke: [
        { id: 'chats', src: chats, systemId: 'chats' },
        {
          id: 'blocking',
          systemId: 'blocking',
          src: blockingMachine.provide({
            actors: {
              loadBlocked: fromPromise(async () => {
                if (opts.failLoad) throw new Error('offline');
                return blocked.map((id) => person(id, id));
              }) as never,
              setBlock: fromPromise(async ({ input }: { input: { userId: string; block: boolean } }) => {
                sent.push(input);
                if (opts.failSet) throw new Error('offline');
                blocked = input.block ? [...blocked, input.userId] : blocked.filter((id) => id !== input.userId);
                return { ok: true };
              }) as never,
            },
          }),
        },
      ],
    }),
  ).start();
  const actor = root.system.get('blocking');
  return { actor, sent, heard };
}
const settled = (s: { value: unknown }) => s.value === 'idle';

describe('blocking with a server', () => {
  it('blocks and unblocks, refreshing the chats list each time; the shown list follows', async () => {
    const { actor, sent, heard } = start();
    actor.send({ type: 'blocking.block', userId: 'u2' });
    await waitFor(actor, settled);
    expect(actor.getSnapshot().context.loaded).toBe(false);
    actor.send({ type: 'blocking.load' });
    await waitFor(actor, (s: { context: { loaded: boolean } }) => s.context.loaded);
    expect(actor.getSnapshot().context.users.map((u: { id: string }) => u.id)).toEqual(['u2']);
    actor.send({ type: 'blocking.unblock', userId: 'u2' });
    await waitFor(
      actor,
      (s: { value: unknown; context: { users: unknown[] } }) => settled(s) && s.context.users.length === 0,
    );
    expect(sent).toEqual([
      { userId: 'u2', block: true },
      { userId: 'u2', block: false },
    ]);
    expect(heard).toEqual([{ type: 'chats.refresh' }, { type: 'chats.refresh' }]);
  });

  it('Settings asks for the list at the start', async () => {
    const actor = createActor(
      blockingMachine.provide({ actors: { loadBlocked: fromPromise(async () => [boris]) as never } }),
      { input: { list: true } },
    ).start();
    await waitFor(actor, (s) => s.context.loaded);
    expect(actor.getSnapshot().context.users).toEqual([boris]);
  });

  it('a block made while the list first loads (it cancels the load) loads the list after', async () => {
    let blocked: string[] = [];
    let loads = 0;
    const actor = createActor(
      blockingMachine.provide({
        actors: {
          loadBlocked: fromPromise(async () => {
            loads += 1;
            return blocked.map((id) => person(id, id));
          }) as never,
          setBlock: fromPromise(async ({ input }: { input: { userId: string; block: boolean } }) => {
            blocked = input.block ? [...blocked, input.userId] : blocked;
            return {};
          }) as never,
        },
      }),
      { input: { list: true } },
    ).start();
    // The contacts page: its first load is under way when «Заблокировать» is pressed.
    expect(actor.getSnapshot().value).toBe('loading');
    actor.send({ type: 'blocking.block', userId: 'u2' });
    await waitFor(actor, (s) => s.context.loaded);
    expect(actor.getSnapshot().context.users.map((u) => u.id)).toEqual(['u2']);
    expect(loads).toBe(2);
  });

  it('says why a change or the list failed, and keeps what it had', async () => {
    const failing = start({ failSet: true });
    failing.actor.send({ type: 'blocking.block', userId: 'u2' });
    await waitFor(failing.actor, (s: { context: { error: string | null } }) => s.context.error !== null);
    expect(failing.actor.getSnapshot().context.error).toBe(BLOCK_FAILED);
    expect(failing.heard).toEqual([]);
    const noList = start({ failLoad: true });
    noList.actor.send({ type: 'blocking.load' });
    await waitFor(noList.actor, (s: { context: { error: string | null } }) => s.context.error !== null);
    expect(noList.actor.getSnapshot().context.error).toBe(BLOCKED_LIST_FAILED);
  });
});
