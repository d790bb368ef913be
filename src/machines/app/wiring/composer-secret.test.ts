// Fail closed (docs/secret-chats.md "Everything else a secret chat goes through"): an outbox item kept from before —
// the outbox sending again at a reconnection or after a reload, whose item does not say it is secret — goes to the
// device actor sealed once the list knows its chat as secret, and never to the plaintext route; a chat the list
// knows as plaintext goes to the plaintext route.
import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, createMachine, type fromPromise, setup, spawnChild, waitFor } from 'xstate';
import type { Services } from '../services';
import { wireOutbox } from './composer';

const conversation = (id: string, secret: boolean) => ({ conversation: { id, ...(secret ? { secret: true } : {}) } });

function harness() {
  const calls: string[] = [];
  const toDevice: unknown[] = [];
  const services = {
    api: {
      call: async (name: string) => {
        calls.push(name);
        return { message: { id: 'm1' } };
      },
    },
  } as unknown as Services;
  const sendMessage = wireOutbox(services).implementations.actors.sendMessage;
  const chats = createMachine({
    context: {
      me: 'u1',
      entries: [conversation('secret-chat', true), conversation('plain-chat', false)],
      selectedId: null,
    },
  });
  // The device actor as the send meets it: what reaches it is recorded (the send then waits for its answer).
  const device = createMachine({ on: { 'secretDevice.send': { actions: ({ event }) => toDevice.push(event) } } });
  const root = setup({
    types: {} as { context: { input: unknown; outcome: string | null }; events: { type: 'go'; input: unknown } },
    actors: { chats, device, send: sendMessage as ReturnType<typeof fromPromise<unknown, unknown>> },
  }).createMachine({
    entry: [
      spawnChild('chats', { id: 'chats', systemId: 'chats' }),
      spawnChild('device', { id: 'secretDevice', systemId: 'secretDevice' }),
    ],
    initial: 'idle',
    context: { input: null, outcome: null },
    states: {
      idle: { on: { go: { target: 'sending', actions: assign({ input: ({ event }) => event.input }) } } },
      sending: {
        invoke: {
          src: 'send',
          input: ({ context }: { context: { input: unknown } }) => context.input,
          onDone: { target: 'done', actions: assign({ outcome: 'sent' }) },
          onError: { target: 'done', actions: assign({ outcome: 'failed' }) },
        },
      },
      done: {},
    },
  });
  return { root, calls, toDevice };
}

describe('the outbox sending again', () => {
  it('seals an item kept from before whose chat the list knows as secret, and never takes the plaintext route', async () => {
    const { root, calls, toDevice } = harness();
    const app = createActor(root).start();
    // An item restored from the outbox's store: no `secret` mark on it.
    app.send({
      type: 'go',
      input: { conversationId: 'secret-chat', content: 'Только для нас', clientMessageId: 'c-1' },
    });
    await vi.waitFor(() => expect(toDevice).toHaveLength(1));
    expect(calls).toEqual([]);
    expect(toDevice).toEqual([
      {
        type: 'secretDevice.send',
        conversationId: 'secret-chat',
        item: { clientMessageId: 'c-1', envelope: { v: 1, kind: 'text', text: 'Только для нас' } },
      },
    ]);
    app.stop();
  });

  it("sends a plaintext chat's item over the plaintext route", async () => {
    const { root, calls, toDevice } = harness();
    const app = createActor(root).start();
    app.send({ type: 'go', input: { conversationId: 'plain-chat', content: 'Привет', clientMessageId: 'c-2' } });
    await waitFor(app, (s) => s.matches('done'));
    expect(app.getSnapshot().context.outcome).toBe('sent');
    expect(calls).toEqual(['send']);
    expect(toDevice).toEqual([]);
    app.stop();
  });
});
