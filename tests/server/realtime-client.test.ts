// The client's realtime actor against the real gateway: an acknowledged emit the server refuses reaches the
// actor that asked, with the server's message; one asked while disconnected is answered at once. Against a bare
// socket.io server: a frame that is not an object never reaches a machine.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assign, createActor, createMachine, waitFor } from 'xstate';
import type { Ack } from '../../src/contract/events';
import { OFFLINE_MESSAGE, realtimeMachine } from '../../src/machines/realtime/realtime/realtime.machine';
import type { ServerEventMessage } from '../../src/machines/realtime/realtime/realtime.protocol';
import { type ServerRequestInput, serverRequest } from '../../src/machines/realtime/realtime/server-request';
import { createSocket } from '../../src/services/realtime/socket';
import { socketActor } from '../../src/services/realtime/socket.actor';
import { client, startTestServer, type TestServer } from './harness';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.close();
});

/** A root with the real realtime actor (systemId 'realtime') and an asker that invokes serverRequest on demand. */
function rootWithAsker(request: ServerRequestInput) {
  const asker = createMachine({
    types: { context: {} as { answer: Ack | null } },
    context: { answer: null },
    initial: 'asking',
    states: {
      asking: {
        invoke: {
          src: serverRequest,
          input: request,
          onDone: { target: 'answered', actions: assign({ answer: ({ event }) => event.output }) },
        },
      },
      answered: {},
    },
  });
  const realtime = realtimeMachine.provide({
    actors: { socket: socketActor((token) => createSocket(token, srv.url)) },
  });
  const root = createActor(
    createMachine({
      invoke: { id: 'realtime', systemId: 'realtime', src: realtime },
      initial: 'idle',
      states: { idle: { on: { ask: 'asking' } }, asking: { invoke: { id: 'asker', src: asker } } },
    }),
  ).start();
  const answer = async () => {
    const ref = root.getSnapshot().children.asker!;
    const done = await waitFor(ref, (s) => s.context.answer !== null, { timeout: 5_000 });
    return done.context.answer;
  };
  return { root, realtime: root.system.get('realtime'), answer };
}

describe('realtime actor ↔ real gateway', () => {
  it("a server refusal reaches the asking actor with the server's message", async () => {
    const api = client(srv.url);
    const anna = await api.user('anna');
    const { root, realtime, answer } = rootWithAsker({
      name: 'call:invite',
      payload: { conversationId: '00000000-0000-4000-8000-000000000000', video: true },
    });
    realtime.send({ type: 'realtime.token', token: anna.accessToken });
    await waitFor(realtime, (s) => s.hasTag('live'), { timeout: 5_000 });
    root.send({ type: 'ask' });
    const ack = await answer();
    expect(ack?.ok).toBe(false);
    expect(ack && !ack.ok && ack.message).toMatch(/[а-яё]/i);
    root.stop();
  });

  it('a request while disconnected is answered at once, not dropped', async () => {
    const { root, answer } = rootWithAsker({ name: 'call:end', payload: { conversationId: 'c1' } });
    root.send({ type: 'ask' });
    expect(await answer()).toEqual({ ok: false, message: OFFLINE_MESSAGE });
    root.stop();
  });
});

describe('socket actor with a socket that arrives late (socket.io-client loaded on demand)', () => {
  /** A connector whose socket arrives only when the test says so: `release` opens it and resolves the promise. */
  function heldConnector() {
    const opened: ReturnType<typeof createSocket>[] = [];
    let release: () => void = () => {
      throw new Error('the connector was not called');
    };
    const connector = (token: string) =>
      new Promise<ReturnType<typeof createSocket>>((resolve) => {
        release = () => resolve(opened[opened.push(createSocket(token, srv.url)) - 1]!);
      });
    return { opened, connector, release: () => release() };
  }

  it('uses the newest token for the handshake: a refresh while the socket loads is not lost', async () => {
    const anna = await client(srv.url).user('anna-late');
    const held = heldConnector();
    const realtime = createActor(realtimeMachine.provide({ actors: { socket: socketActor(held.connector) } })).start();
    realtime.send({ type: 'realtime.token', token: 'not-a-valid-token' });
    realtime.send({ type: 'realtime.token', token: anna.accessToken });
    held.release();
    await waitFor(realtime, (s) => s.hasTag('live'), { timeout: 5_000 });
    expect(held.opened).toHaveLength(1);
    expect(held.opened[0]!.auth).toEqual({ token: anna.accessToken });
    realtime.stop();
  });

  it('a socket that arrives after the actor stopped is closed at once', async () => {
    const anna = await client(srv.url).user('anna-gone');
    const held = heldConnector();
    const realtime = createActor(realtimeMachine.provide({ actors: { socket: socketActor(held.connector) } })).start();
    realtime.send({ type: 'realtime.token', token: anna.accessToken });
    realtime.send({ type: 'realtime.stop' });
    held.release();
    expect(held.opened).toHaveLength(1);
    const arrived = held.opened[0]!;
    // Opened with autoConnect, the socket is active until the actor disconnects it.
    await vi.waitFor(() => expect(arrived.active).toBe(false), { timeout: 5_000 });
    expect(arrived.connected).toBe(false);
    realtime.stop();
  });
});

describe('socket actor ↔ a server that sends garbage', () => {
  it('drops a payload that is not an object and hands on the next good one', async () => {
    const http = createServer();
    const io = new Server(http, { transports: ['websocket'] });
    io.on('connection', (socket) => {
      for (const garbage of ['garbage', 42, null, [1, 2]]) socket.emit('message:deleted', garbage);
      socket.emit('message:deleted', { conversationId: 'c1', messageId: 'm1' });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const root = createActor(
      createMachine({
        types: { context: {} as { events: ServerEventMessage[] } },
        context: { events: [] },
        invoke: { src: socketActor((token) => createSocket(token, url)), input: { token: 't' } },
        on: {
          'server.event': {
            actions: assign({ events: ({ context, event }) => [...context.events, event as ServerEventMessage] }),
          },
        },
      }),
    ).start();
    try {
      const done = await waitFor(root, (s) => s.context.events.length > 0, { timeout: 5_000 });
      expect(done.context.events).toEqual([
        { type: 'server.event', name: 'message:deleted', payload: { conversationId: 'c1', messageId: 'm1' } },
      ]);
      expect(warn).toHaveBeenCalledTimes(4);
    } finally {
      root.stop();
      warn.mockRestore();
      await io.close();
    }
  });
});
