import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { CHAT_ACTION_FAILED, type ChatAction, chatActionsMachine } from './chatActions.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const pin: ChatAction = { kind: 'settings', conversationId: 'c1', change: { pinned: true } };
const clear: ChatAction = { kind: 'clear', conversationId: 'c1' };
const hide: ChatAction = { kind: 'hide', conversationId: 'c2' };

describeModel({
  name: 'chatActions',
  machine: chatActionsMachine.provide({ actors: { runChatAction: hang } }),
  events: {
    'chatActions.run': () => [
      { type: 'chatActions.run', action: pin },
      { type: 'chatActions.run', action: clear },
    ],
    'chatActions.confirm': () => [{ type: 'chatActions.confirm' }],
    'chatActions.cancel': () => [{ type: 'chatActions.cancel' }],
    'xstate.done.actor.runChatAction': () => [{ type: 'xstate.done.actor.runChatAction', output: {} }],
    'xstate.error.actor.runChatAction': () => [
      { type: 'xstate.error.actor.runChatAction', error: new RequestFailure(409, 'Можно закрепить не больше 5 чатов') },
    ],
  },
});

function start(fail = false) {
  const sent: ChatAction[] = [];
  const toChats: unknown[] = [];
  const chats = createMachine({
    context: { selectedId: 'c1' },
    on: { '*': { actions: ({ event }) => toChats.push(event) } },
  });
  const root = createActor(
    createMachine({
      invoke: [
        { id: 'chats', src: chats, systemId: 'chats' },
        {
          id: 'chatActions',
          systemId: 'chatActions',
          src: chatActionsMachine.provide({
            actors: {
              runChatAction: fromPromise(async ({ input }: { input: ChatAction }) => {
                sent.push(input);
                if (fail) throw new Error('offline');
                return {};
              }) as never,
            },
          }),
        },
      ],
    }),
  ).start();
  return { actor: root.system.get('chatActions'), sent, toChats };
}
const idle = (s: { value: unknown }) => s.value === 'idle';

describe('chatActions with a server', () => {
  it('changes a setting at once; clearing and deleting ask first, and a cancel sends nothing', async () => {
    const { actor, sent, toChats } = start();
    actor.send({ type: 'chatActions.run', action: pin });
    await waitFor(actor, idle);
    actor.send({ type: 'chatActions.run', action: hide });
    expect(actor.getSnapshot().hasTag('confirming')).toBe(true);
    actor.send({ type: 'chatActions.cancel' });
    actor.send({ type: 'chatActions.run', action: clear });
    actor.send({ type: 'chatActions.confirm' });
    await waitFor(actor, idle);
    expect(sent).toEqual([pin, clear]);
    // The cleared conversation is open: the list is read again and the conversation opens again.
    expect(toChats).toEqual([{ type: 'chats.refresh' }, { type: 'chats.open', conversationId: 'c1', again: true }]);
  });

  it('says why it failed', async () => {
    const { actor } = start(true);
    actor.send({ type: 'chatActions.run', action: pin });
    await waitFor(actor, (s: { context: { error: string | null } }) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(CHAT_ACTION_FAILED);
  });
});
