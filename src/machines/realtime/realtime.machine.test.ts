import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromCallback } from 'xstate';
import { describeModel } from '../../../tests/model/harness';
import { type RealtimeEvent, realtimeMachine, type SocketCommand } from './realtime.machine';

const quietSocket = fromCallback<SocketCommand, { token: string }>(() => () => {});
const stubbed = realtimeMachine.provide({ actors: { socket: quietSocket } });

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
    'server.event': () => [{ type: 'server.event', name: 'presence:update', payload: { userId: 'u2', status: 'AWAY', lastSeenAt: null } }],
    'realtime.emit': () => [{ type: 'realtime.emit', name: 'conversation:join', payload: 'c1' }],
  },
});

describe('realtime wiring', () => {
  it('opens one socket per token hand-over, passes fresh tokens to it, and relays server events', () => {
    const opened: string[] = [];
    const commands: SocketCommand[] = [];
    let report: ((e: RealtimeEvent) => void) | null = null;
    const actor = createActor(
      realtimeMachine.provide({
        actors: {
          socket: fromCallback<SocketCommand, { token: string }>(({ input, sendBack, receive }) => {
            opened.push(input.token);
            report = sendBack as (e: RealtimeEvent) => void;
            receive((c) => commands.push(c));
          }),
        },
      }),
    ).start();
    const relayed: unknown[] = [];
    actor.on('server.event', (e) => relayed.push(e.payload));

    expect(opened).toEqual([]); // no token, no connection
    actor.send({ type: 'realtime.token', token: 't1' });
    actor.send({ type: 'realtime.token', token: 't1' });
    report!({ type: 'socket.connected' });
    actor.send({ type: 'realtime.token', token: 't2' });
    expect(opened).toEqual(['t1']); // already connected: no second connection
    expect(commands).toEqual([{ type: 'socket.auth', token: 't2' }]);

    report!({ type: 'server.event', name: 'message:notify', payload: { conversationId: 'c1' } });
    expect(relayed).toEqual([{ conversationId: 'c1' }]);
  });

  it('asks the session (by systemId) for a refresh when the server refuses the handshake, then reconnects', () => {
    const opened: string[] = [];
    let report: ((e: RealtimeEvent) => void) | null = null;
    const sessionInbox: string[] = [];
    const fakeSession = createMachine({ on: { '*': { actions: ({ event }) => sessionInbox.push(event.type) } } });
    const parent = createMachine({
      invoke: [
        { id: 'session', systemId: 'session', src: fakeSession },
        {
          id: 'realtime',
          systemId: 'realtime',
          src: realtimeMachine.provide({
            actors: {
              socket: fromCallback<SocketCommand, { token: string }>(({ input, sendBack }) => {
                opened.push(input.token);
                report = sendBack as (e: RealtimeEvent) => void;
              }),
            },
          }),
        },
      ],
    });
    const root = createActor(parent).start();
    const realtime = root.system.get('realtime');
    realtime.send({ type: 'realtime.token', token: 't1' });
    report!({ type: 'socket.rejected', message: 'unauthorized' });
    expect(sessionInbox).toEqual(['session.refresh']);
    realtime.send({ type: 'realtime.token', token: 't2' });
    expect(opened).toEqual(['t1', 't2']);
  });
});
