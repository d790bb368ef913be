import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, createMachine, fromCallback, fromPromise } from 'xstate';
import { hang } from '../../../../tests/fixtures/session';
import { describeModel } from '../../../../tests/model/harness';
import { OFFLINE_MESSAGE, type RealtimeEmitted, type RealtimeEvent, realtimeMachine } from './realtime.machine';
import type { SocketCommand } from './realtime.protocol';
import { serverRequest } from './server-request';

const quietSocket = fromCallback<SocketCommand, { token: string }>(() => () => {});
const stubbed = realtimeMachine.provide({ actors: { socket: quietSocket, renewToken: hang as never } });

describeModel({
  name: 'realtime',
  machine: stubbed,
  events: {
    // Two distinct tokens: the same token again must not reconnect, a new one must be used.
    'realtime.token': (snap) => [
      { type: 'realtime.token', token: 't1' },
      ...(snap.context.token === 't1' ? [{ type: 'realtime.token', token: 't2' }] : []),
    ],
    'socket.disconnected': () => [
      { type: 'socket.disconnected', reason: 'transport close' },
      { type: 'socket.disconnected', reason: 'io server disconnect' },
    ],
    'socket.rejected': () => [{ type: 'socket.rejected', message: 'unauthorized' }],
    'socket.ack': () => [{ type: 'socket.ack', requestId: 'rq1', ack: { ok: false, message: 'Нет доступа' } }],
    'server.event': () => [
      { type: 'server.event', name: 'presence:update', payload: { userId: 'u2', status: 'AWAY', lastSeenAt: null } },
      { type: 'server.event', name: 'session:expiring', payload: { expiresAt: '2026-11-22T10:00:00.000Z' } },
      { type: 'server.event', name: 'session:closed', payload: { reason: 'logout', message: 'Вы вышли из аккаунта' } },
    ],
    'realtime.emit': () => [
      { type: 'realtime.emit', name: 'conversation:join', payload: 'c1' },
      { type: 'realtime.emit', name: 'conversation:join', payload: 'c1', requestId: 'rq1' },
      { type: 'realtime.emit', name: 'call:end', payload: { conversationId: 'c1' }, untilConnected: true },
    ],
    // The session's answer: a fresh token, the same token (nothing renewed), or none (signed out).
    'xstate.done.actor.renewToken': () => [
      { type: 'xstate.done.actor.renewToken', output: 't9' },
      { type: 'xstate.done.actor.renewToken', output: null },
    ],
    'xstate.error.actor.renewToken': () => [{ type: 'xstate.error.actor.renewToken', error: new Error('boom') }],
  },
});

/** A realtime actor whose socket the test drives: it sees what was opened and commanded, and reports for it. */
function drivenRealtime() {
  const opened: string[] = [];
  const commands: SocketCommand[] = [];
  let report: ((e: RealtimeEvent) => void) | null = null;
  const socket = fromCallback<SocketCommand, { token: string }>(({ input, sendBack, receive }) => {
    opened.push(input.token);
    report = sendBack as (e: RealtimeEvent) => void;
    receive((c) => commands.push(c));
  });
  return {
    opened,
    commands,
    report: (e: RealtimeEvent) => report!(e),
    machine: realtimeMachine.provide({ actors: { socket } }),
  };
}

describe('realtime wiring', () => {
  it('opens one socket per token hand-over, passes fresh tokens to it, and relays server events', () => {
    const rt = drivenRealtime();
    const actor = createActor(rt.machine).start();
    const relayed: RealtimeEmitted[] = [];
    actor.on('*', (e) => relayed.push(e));

    expect(rt.opened).toEqual([]); // no token, no connection
    actor.send({ type: 'realtime.token', token: 't1' });
    actor.send({ type: 'realtime.token', token: 't1' });
    rt.report({ type: 'socket.connected' });
    actor.send({ type: 'realtime.token', token: 't2' });
    expect(rt.opened).toEqual(['t1']); // already connected: no second connection
    expect(rt.commands).toEqual([
      { type: 'socket.auth', token: 't2' },
      { type: 'socket.emit', name: 'session:renew', payload: { token: 't2' } },
    ]);

    const payload = { conversationId: 'c1', messageId: 'm1' };
    rt.report({ type: 'server.event', name: 'message:deleted', payload });
    expect(relayed).toEqual([
      { type: 'realtime.connected' },
      { type: 'server.event', name: 'message:deleted', payload },
    ]);
  });

  it('a refreshed token renews the live socket; session:expiring asks the session for that refresh', () => {
    const rt = drivenRealtime();
    const sessionInbox: string[] = [];
    const parent = createMachine({
      invoke: [
        {
          id: 'session',
          systemId: 'session',
          src: createMachine({
            on: { 'session.refresh': { actions: ({ event }) => void sessionInbox.push(event.type) } },
          }),
        },
        { id: 'realtime', systemId: 'realtime', src: rt.machine },
      ],
    });
    const realtime = createActor(parent).start().system.get('realtime');
    realtime.send({ type: 'realtime.token', token: 't1' });
    rt.report({ type: 'socket.connected' });
    rt.report({ type: 'server.event', name: 'session:expiring', payload: { expiresAt: '2026-11-22T10:00:00.000Z' } });
    expect(sessionInbox).toEqual(['session.refresh']);
    realtime.send({ type: 'realtime.token', token: 't2' });
    expect(rt.commands).toEqual([
      { type: 'socket.auth', token: 't2' },
      { type: 'socket.emit', name: 'session:renew', payload: { token: 't2' } },
    ]);
    // Closed for good by the server: no reconnection, the reason kept for the user.
    rt.report({
      type: 'server.event',
      name: 'session:closed',
      payload: { reason: 'tooManyConnections', message: 'Слишком много вкладок' },
    });
    expect(realtime.getSnapshot().value).toBe('closed');
    expect(realtime.getSnapshot().context.closedMessage).toBe('Слишком много вкладок');
  });

  it("a deactivated account's socket ends the session with the server's words", () => {
    const rt = drivenRealtime();
    const sessionInbox: unknown[] = [];
    const parent = createMachine({
      invoke: [
        {
          id: 'session',
          systemId: 'session',
          src: createMachine({ on: { '*': { actions: ({ event }) => void sessionInbox.push(event) } } }),
        },
        { id: 'realtime', systemId: 'realtime', src: rt.machine },
      ],
    });
    const realtime = createActor(parent).start().system.get('realtime');
    realtime.send({ type: 'realtime.token', token: 't1' });
    rt.report({ type: 'socket.connected' });
    rt.report({
      type: 'server.event',
      name: 'session:closed',
      payload: { reason: 'deactivated', message: 'Аккаунт отключён администратором' },
    });
    expect(sessionInbox[0]).toEqual({ type: 'session.ended', message: 'Аккаунт отключён администратором' });
    expect(realtime.getSnapshot().value).toBe('closed');
  });

  it('a sign-in ended elsewhere (reason logout) ends the session, saying so on the sign-in screen', () => {
    const rt = drivenRealtime();
    const sessionInbox: { type: string }[] = [];
    const parent = createMachine({
      invoke: [
        {
          id: 'session',
          systemId: 'session',
          src: createMachine({ on: { '*': { actions: ({ event }) => void sessionInbox.push(event) } } }),
        },
        { id: 'realtime', systemId: 'realtime', src: rt.machine },
      ],
    });
    const realtime = createActor(parent).start().system.get('realtime');
    realtime.send({ type: 'realtime.token', token: 't1' });
    rt.report({ type: 'socket.connected' });
    rt.report({
      type: 'server.event',
      name: 'session:closed',
      payload: { reason: 'logout', message: 'Вы вышли из аккаунта' },
    });
    expect(sessionInbox[0]).toEqual({
      type: 'session.ended',
      message: 'Сеанс завершён на другом устройстве или администратором. Войдите снова.',
    });
  });

  it('answers a request at once while not connected, and forwards it with its id once connected', () => {
    const rt = drivenRealtime();
    const actor = createActor(rt.machine).start();
    const acks: unknown[] = [];
    actor.on('realtime.ack', (e) => acks.push(e));
    actor.send({ type: 'realtime.emit', name: 'call:end', payload: { conversationId: 'c1' }, requestId: 'r1' });
    expect(acks).toEqual([{ type: 'realtime.ack', requestId: 'r1', ack: { ok: false, message: OFFLINE_MESSAGE } }]);

    actor.send({ type: 'realtime.token', token: 't1' });
    rt.report({ type: 'socket.connected' });
    actor.send({ type: 'realtime.emit', name: 'call:end', payload: { conversationId: 'c1' }, requestId: 'r2' });
    expect(rt.commands).toEqual([
      { type: 'socket.emit', name: 'call:end', payload: { conversationId: 'c1' }, requestId: 'r2' },
    ]);
    rt.report({ type: 'socket.ack', requestId: 'r2', ack: { ok: false, message: 'Вы не участник этой беседы' } });
    expect(acks[1]).toEqual({
      type: 'realtime.ack',
      requestId: 'r2',
      ack: { ok: false, message: 'Вы не участник этой беседы' },
    });
  });

  it('keeps a call signal made while the socket reconnects and sends it once connected; drops plain emits', () => {
    const rt = drivenRealtime();
    const actor = createActor(rt.machine).start();
    actor.send({ type: 'realtime.token', token: 't1' });
    rt.report({ type: 'socket.connected' });
    // A ping timeout (the page slept past its heartbeat) closes the socket just before the ring times out.
    rt.report({ type: 'socket.disconnected', reason: 'ping timeout' });
    actor.send({ type: 'realtime.emit', name: 'conversation:typing', payload: { conversationId: 'c1', typing: true } });
    actor.send({
      type: 'realtime.emit',
      name: 'call:decline',
      payload: { conversationId: 'c1' },
      untilConnected: true,
    });
    expect(rt.commands).toEqual([]);
    rt.report({ type: 'socket.connected' });
    expect(rt.commands).toEqual([{ type: 'socket.emit', name: 'call:decline', payload: { conversationId: 'c1' } }]);
    rt.report({ type: 'socket.disconnected', reason: 'transport close' });
    rt.report({ type: 'socket.connected' });
    expect(rt.commands).toHaveLength(1); // sent once
  });

  it('a refused handshake asks the session (by systemId) for a refresh once and reconnects with the new token', () => {
    vi.useFakeTimers();
    const rt = drivenRealtime();
    const sessionInbox: string[] = [];
    // A session that only records requests: the realtime actor must not re-ask on a timer while it waits.
    const fakeSession = createMachine({
      on: { 'session.refresh': { actions: ({ event }) => void sessionInbox.push(event.type) } },
    });
    const parent = createMachine({
      invoke: [
        { id: 'session', systemId: 'session', src: fakeSession },
        { id: 'realtime', systemId: 'realtime', src: rt.machine },
      ],
    });
    const root = createActor(parent).start();
    const realtime = root.system.get('realtime');
    realtime.send({ type: 'realtime.token', token: 't1' });
    rt.report({ type: 'socket.rejected', message: 'unauthorized' });
    vi.advanceTimersByTime(60_000);
    vi.useRealTimers();
    // Asked once, no re-asking on a timer: the session answers every request.
    expect(sessionInbox).toEqual(['session.refresh']);
    expect(realtime.getSnapshot().value).toBe('rejected');
    realtime.send({ type: 'realtime.token', token: 't2' });
    expect(rt.opened).toEqual(['t1', 't2']);
    // The fresh token is refused too: refreshing again would not help, so it stops with the server's message.
    rt.report({ type: 'socket.rejected', message: 'Подключение с этого сайта запрещено' });
    expect(realtime.getSnapshot().value).toBe('closed');
    expect(realtime.getSnapshot().context.closedMessage).toBe('Подключение с этого сайта запрещено');
    expect(sessionInbox).toEqual(['session.refresh']);
  });

  it('a link that drops and comes back says so (tag reconnecting) and has the connectivity ping measure it at once', () => {
    const rt = drivenRealtime();
    const checks: string[] = [];
    const fakeConnectivity = createMachine({
      on: { 'connectivity.check': { actions: ({ event }) => void checks.push(event.type) } },
    });
    const parent = createMachine({
      invoke: [
        { id: 'connectivity', systemId: 'connectivity', src: fakeConnectivity },
        { id: 'realtime', systemId: 'realtime', src: rt.machine },
      ],
    });
    const realtime = createActor(parent).start().system.get('realtime');
    realtime.send({ type: 'realtime.token', token: 't1' });
    rt.report({ type: 'socket.connected' });
    expect(checks).toEqual(['connectivity.check']);
    rt.report({ type: 'socket.disconnected', reason: 'transport close' });
    expect(realtime.getSnapshot().hasTag('reconnecting')).toBe(true);
    rt.report({ type: 'socket.connected' });
    expect(realtime.getSnapshot().hasTag('reconnecting')).toBe(false);
    expect(checks).toEqual(['connectivity.check', 'connectivity.check']);
  });

  it('reconnects with the renewed token even when it equals the last one announced (same-second refreshes)', () => {
    const rt = drivenRealtime();
    const actor = createActor(
      rt.machine.provide({ actors: { renewToken: fromPromise<string | null>(async () => 't2') } }),
    ).start();
    actor.send({ type: 'realtime.token', token: 't1' });
    actor.send({ type: 'realtime.token', token: 't2' }); // announced while the t1 handshake is under way
    rt.report({ type: 'socket.rejected', message: 'Требуется вход' }); // the t1 handshake is refused
    return vi.waitFor(() => {
      expect(actor.getSnapshot().value).toEqual({ online: 'connecting' });
      expect(rt.opened).toEqual(['t1', 't2']);
    });
  });

  it('serverRequest resolves the server refusal for the asking actor', async () => {
    const rt = drivenRealtime();
    const asker = createMachine({
      types: { context: {} as { answer: unknown } },
      context: { answer: null },
      initial: 'asking',
      states: {
        asking: {
          invoke: {
            src: serverRequest,
            input: { name: 'call:invite', payload: { conversationId: 'c1', video: true } },
            onDone: { target: 'answered', actions: assign({ answer: ({ event }) => event.output }) },
          },
        },
        answered: {},
      },
    });
    const parent = createMachine({
      initial: 'connecting',
      invoke: { id: 'realtime', systemId: 'realtime', src: rt.machine },
      states: { connecting: { on: { go: 'asking' } }, asking: { invoke: { id: 'asker', src: asker } } },
    });
    const root = createActor(parent).start();
    root.system.get('realtime').send({ type: 'realtime.token', token: 't1' });
    rt.report({ type: 'socket.connected' });
    root.send({ type: 'go' });
    const cmd = rt.commands.at(-1) as Extract<SocketCommand, { type: 'socket.emit' }>;
    expect(cmd).toMatchObject({ type: 'socket.emit', name: 'call:invite' });
    if (cmd.requestId === undefined) throw new Error('call:invite was sent without a request id');
    rt.report({ type: 'socket.ack', requestId: cmd.requestId, ack: { ok: false, message: 'Никого нет в сети' } });
    await new Promise((r) => setTimeout(r, 0));
    const askerRef = root.getSnapshot().children.asker;
    expect(askerRef?.getSnapshot().context.answer).toEqual({ ok: false, message: 'Никого нет в сети' });
  });
});
