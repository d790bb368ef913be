// Fail closed (docs/secret-chats.md "Everything else a secret chat goes through"): an outbox item kept from before —
// the outbox sending again at a reconnection or after a reload, whose item does not say it is secret — goes to the
// device actor sealed once the list knows its chat as secret, and never to the plaintext route; a chat the list
// knows as plaintext goes to the plaintext route. The wired outbox runs with its store and the API replaced.
import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate';
import type { OutboxItem } from '../../machines/composer/outbox/outbox-item';
import type { Services } from '../app/services';
import { wireOutbox } from './composer.effects';

/** An item as an older page stored it: no `secret` mark on it. */
const kept = (conversationId: string, content: string, clientMessageId: string): OutboxItem => ({
  id: `tmp-${clientMessageId}`,
  clientMessageId,
  conversationId,
  kind: 'text',
  content,
  replyTo: null,
  files: [],
  status: 'failed',
  error: null,
  retryable: true,
  createdAt: '2025-03-01T10:00:00.000Z',
});

function harness(stored: OutboxItem[]) {
  const calls: string[] = [];
  const toDevice: unknown[] = [];
  const services = {
    api: {
      call: async (name: string) => {
        calls.push(name);
        return { message: { id: 'm1' } };
      },
    },
    outboxStore: { load: () => stored, save: () => {} },
  } as unknown as Services;
  // The device actor as the send meets it: what reaches it is recorded (the send then waits for its answer).
  const device = createActor(
    createMachine({ on: { 'secretDevice.send': { actions: ({ event }) => toDevice.push(event) } } }),
  ).start();
  const outbox = wireOutbox(services).provide({
    actors: {
      serverEvents: fromCallback(() => () => {}),
      loadUploadLimit: fromPromise(async () => 1_000_000),
    } as never,
  });
  const actor = createActor(outbox, { input: { userId: 'u1', tag: 't', device: device as never } }).start();
  return { actor, calls, toDevice };
}

describe('the outbox sending again', () => {
  it('seals an item kept from before whose chat the list knows as secret, and never takes the plaintext route', async () => {
    const { actor, calls, toDevice } = harness([kept('secret-chat', 'Только для нас', 'c-1')]);
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'outbox.secretChats', conversationIds: ['secret-chat'] });
    actor.send({ type: 'outbox.reconnected' });
    await vi.waitFor(() => expect(toDevice).toHaveLength(1));
    expect(calls).toEqual([]);
    expect(toDevice).toEqual([
      {
        type: 'secretDevice.send',
        conversationId: 'secret-chat',
        item: { clientMessageId: 'c-1', envelope: { v: 1, kind: 'text', text: 'Только для нас' } },
      },
    ]);
    actor.stop();
  });

  it("sends a plaintext chat's item over the plaintext route", async () => {
    const { actor, calls, toDevice } = harness([kept('plain-chat', 'Привет', 'c-2')]);
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'outbox.secretChats', conversationIds: ['secret-chat'] });
    actor.send({ type: 'outbox.reconnected' });
    await waitFor(actor, (s) => s.context.items.length === 0);
    expect(calls).toEqual(['send']);
    expect(toDevice).toEqual([]);
    actor.stop();
  });
});
