import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../../tests/model/harness';
import { callsPageMachine, DEFAULT_GUEST_NAME, DEFAULT_ROOM, ROOM_FAILED, type RoomAccess } from './callsPage.machine';

const hang = <T>() => fromPromise<T, unknown>(() => new Promise<never>(() => {}));
const access: RoomAccess = { token: 'jwt', url: 'ws://media.example:7880' };

describeModel({
  name: 'callsPage',
  machine: callsPageMachine.provide({
    actors: { fetchToken: hang<RoomAccess>() as never, serverAddress: hang<string | null>() as never },
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
  },
});

describe('callsPage', () => {
  it('starts on the form with demo-room and the fallback server address', async () => {
    const actor = createActor(
      callsPageMachine.provide({
        actors: { serverAddress: fromPromise<string | null>(async () => 'ws://localhost:7880') },
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
    await waitFor(actor, (s) => s.matches('inRoom'));
    expect(actor.getSnapshot().context).toMatchObject({ access, serverUrl: access.url, error: null });
    actor.send({ type: 'room.left' });
    expect(actor.getSnapshot().matches('form')).toBe(true);
    expect(actor.getSnapshot().context.access).toBeNull();
  });

  it('shows why a token was refused, and the library’s error when the conference cannot connect', async () => {
    let fail = true;
    const actor = createActor(
      callsPageMachine.provide({
        actors: {
          fetchToken: fromPromise(async () => {
            if (fail) throw new Error('');
            return { token: 'jwt', url: '' };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'room.join', room: 'x', name: 'Анна' });
    await waitFor(actor, (s) => s.matches('form'));
    expect(actor.getSnapshot().context.error).toBe(ROOM_FAILED);
    fail = false;
    actor.send({ type: 'room.join', room: 'x', name: 'Анна' });
    await waitFor(actor, (s) => s.matches('inRoom'));
    actor.send({ type: 'room.failed', message: 'no livekit url provided' });
    expect(actor.getSnapshot().context.error).toBe('no livekit url provided');
    expect(actor.getSnapshot().hasTag('form')).toBe(true);
  });
});
