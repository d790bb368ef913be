import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import {
  type CallHistoryEntry,
  callsPageMachine,
  DEFAULT_GUEST_NAME,
  DEFAULT_ROOM,
  HISTORY_FAILED,
  ROOM_FAILED,
  type RoomAccess,
} from './callsPage.machine';

const hang = <T>() => fromPromise<T, unknown>(() => new Promise<never>(() => {}));
const access: RoomAccess = { token: 'jwt', url: 'ws://media.example:7880' };
const missed: CallHistoryEntry = {
  id: 'm1',
  conversationId: 'c1',
  createdAt: '2026-11-24T10:00:00.000Z',
  call: { kind: 'video', outcome: 'missed', callerId: 'u2', durationSec: 0 },
};
const noHistory = fromPromise<CallHistoryEntry[]>(async () => []);

describeModel({
  name: 'callsPage',
  machine: callsPageMachine.provide({
    actors: {
      fetchToken: hang<RoomAccess>() as never,
      serverAddress: hang<string | null>() as never,
      loadHistory: hang<CallHistoryEntry[]>() as never,
    },
  }),
  events: {
    'room.join': () => [
      { type: 'room.join', room: ' team ', name: 'Анна' },
      { type: 'room.join', room: '   ', name: 'Анна' },
    ],
    'room.failed': () => [{ type: 'room.failed', message: 'no livekit url provided' }],
    'xstate.done.actor.fetchToken': () => [{ type: 'xstate.done.actor.fetchToken', output: access }],
    'xstate.error.actor.fetchToken': () => [
      { type: 'xstate.error.actor.fetchToken', error: new Error('Укажите комнату') },
    ],
    'xstate.done.actor.serverAddress': () => [
      { type: 'xstate.done.actor.serverAddress', output: 'ws://localhost:7880' },
    ],
    'xstate.done.actor.loadHistory': () => [{ type: 'xstate.done.actor.loadHistory', output: [missed] }],
    'xstate.error.actor.loadHistory': () => [{ type: 'xstate.error.actor.loadHistory', error: new Error('offline') }],
    'history.retry': () => [{ type: 'history.retry' }],
    'history.callBack': () => [{ type: 'history.callBack', conversationId: 'c1', video: true }],
  },
});

describe('callsPage', () => {
  it('starts on the form with demo-room and the fallback server address', async () => {
    const actor = createActor(
      callsPageMachine.provide({
        actors: {
          serverAddress: fromPromise<string | null>(async () => 'ws://localhost:7880'),
          loadHistory: noHistory,
        },
      }),
    ).start();
    expect(actor.getSnapshot().hasTag('form')).toBe(true);
    expect(actor.getSnapshot().context.room).toBe(DEFAULT_ROOM);
    await waitFor(actor, (s) => s.context.serverUrl !== null);
    expect(actor.getSnapshot().context.serverUrl).toBe('ws://localhost:7880');
  });

  it('asks for a token as the user or guest, shows the token’s server, and returns to the form on disconnect', async () => {
    const asked: unknown[] = [];
    let answer: (a: RoomAccess) => void = () => {};
    const actor = createActor(
      callsPageMachine.provide({
        actors: {
          loadHistory: noHistory,
          fetchToken: fromPromise(({ input }) => {
            asked.push(input);
            return new Promise<RoomAccess>((r) => {
              answer = r;
            });
          }),
        },
      }),
    ).start();
    actor.send({ type: 'room.join', room: 'demo-room', name: '  ' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(asked).toEqual([{ room: 'demo-room', participantName: DEFAULT_GUEST_NAME }]);
    answer(access);
    await waitFor(actor, (s) => s.matches({ room: 'inRoom' }));
    expect(actor.getSnapshot().context).toMatchObject({ access, serverUrl: access.url, error: null });
    actor.send({ type: 'room.left' });
    expect(actor.getSnapshot().matches({ room: 'form' })).toBe(true);
    expect(actor.getSnapshot().context.access).toBeNull();
  });

  it('shows why a token was refused, and the library’s error when the conference cannot connect', async () => {
    let fail = true;
    const actor = createActor(
      callsPageMachine.provide({
        actors: {
          loadHistory: noHistory,
          fetchToken: fromPromise(async () => {
            if (fail) throw new Error('');
            return { token: 'jwt', url: '' };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'room.join', room: 'x', name: 'Анна' });
    await waitFor(actor, (s) => s.matches({ room: 'form' }));
    expect(actor.getSnapshot().context.error).toBe(ROOM_FAILED);
    fail = false;
    actor.send({ type: 'room.join', room: 'x', name: 'Анна' });
    await waitFor(actor, (s) => s.matches({ room: 'inRoom' }));
    actor.send({ type: 'room.failed', message: 'no livekit url provided' });
    expect(actor.getSnapshot().context.error).toBe('no livekit url provided');
    expect(actor.getSnapshot().hasTag('form')).toBe(true);
  });

  it('loads the call history, retries after a failure, and calls back through the chats actor', async () => {
    let fail = true;
    const told: unknown[] = [];
    const page = callsPageMachine.provide({
      actors: {
        loadHistory: fromPromise(async () => {
          if (fail) throw new Error('offline');
          return [missed];
        }),
      },
    });
    const root = createMachine({
      invoke: [
        {
          id: 'chats',
          systemId: 'chats',
          src: createMachine({ on: { '*': { actions: ({ event }) => told.push(event) } } }),
        },
        { id: 'page', systemId: 'callsPage', src: page },
      ],
    });
    const app = createActor(root).start();
    const actor = app.system.get('callsPage');
    await waitFor(actor, (s: { matches(v: unknown): boolean }) => s.matches({ history: 'failed' }));
    expect(actor.getSnapshot().context.historyError).toBe(HISTORY_FAILED);
    fail = false;
    actor.send({ type: 'history.retry' });
    await waitFor(actor, (s: { matches(v: unknown): boolean }) => s.matches({ history: 'loaded' }));
    expect(actor.getSnapshot().context).toMatchObject({ history: [missed], historyError: null });
    actor.send({ type: 'history.callBack', conversationId: 'c1', video: true });
    expect(told).toEqual([
      { type: 'chats.open', conversationId: 'c1' },
      { type: 'chats.call', video: true },
    ]);
    app.stop();
  });
});
