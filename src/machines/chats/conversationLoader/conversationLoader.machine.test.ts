import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { conversationLoaderMachine, LOADER_TAGS } from './conversationLoader.machine';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const child = createMachine({});
const opening = { conversationId: 'c1', userId: 'me', unread: 2, jumpTo: null };

type Snap = ReturnType<typeof conversationLoaderMachine.getInitialSnapshot>;
const codeHere = (s: Snap) => s.context.code !== null;

describeModel({
  name: 'conversationLoader',
  machine: conversationLoaderMachine.provide({ actors: { loadOwned: hang } as never }),
  events: {
    'loader.prepare': () => [{ type: 'loader.prepare' }],
    'loader.open': (s) => (s.context.opening ? [] : [{ type: 'loader.open', conversation: opening }]),
    'loader.again': (s) => (s.context.opening?.jumpTo ? [] : [{ type: 'loader.again', messageId: 'm1' }]),
    'loader.close': () => [{ type: 'loader.close' }],
    'xstate.done.actor.loadOwned': (s) =>
      codeHere(s) ? [] : [{ type: 'xstate.done.actor.loadOwned', output: { conversation: child } }],
    'xstate.error.actor.loadOwned': () => [{ type: 'xstate.error.actor.loadOwned', error: new Error('offline') }],
  },
});

describe('conversationLoader', () => {
  it('starts the conversation once its code is here, jumps in it, and keeps the code for the next opening', async () => {
    const inputs: unknown[] = [];
    const jumps: unknown[] = [];
    const conversation = createMachine({
      context: ({ input }: { input: unknown }) => {
        inputs.push(input);
        return {};
      },
      on: { 'conversation.jumpTo': { actions: ({ event }) => jumps.push(event) } },
    });
    let loads = 0;
    const loader = createActor(
      conversationLoaderMachine.provide({
        actors: {
          loadOwned: fromPromise(async () => {
            loads++;
            return { conversation };
          }),
        } as never,
      }),
    ).start();
    loader.send({ type: 'loader.open', conversation: opening });
    loader.send({ type: 'loader.again', messageId: 'm0' });
    await new Promise((r) => setTimeout(r));
    expect(inputs).toEqual([{ ...opening, jumpTo: 'm0' }]);
    loader.send({ type: 'loader.again', messageId: 'm1' });
    expect(jumps).toEqual([{ type: 'conversation.jumpTo', messageId: 'm1' }]);
    loader.send({ type: 'loader.close' });
    expect(loader.getSnapshot().children.conversation).toBeUndefined();
    loader.send({ type: 'loader.open', conversation: { ...opening, conversationId: 'c2' } });
    expect(loader.getSnapshot().children.conversation).toBeDefined();
    expect(loads).toBe(1);
    expect(loader.getSnapshot().hasTag(LOADER_TAGS.conversationFailed)).toBe(false);
    loader.stop();
  });
});
