import { describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, emit, fromCallback, fromPromise, setup, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { Ack } from '../../../contract/events';
import { RequestFailure } from '../../../contract/failure';
import { CALL_ROOM_NOTICES, CALL_ROOM_TAGS, callRoomMachine } from './callRoom.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const quiet = fromCallback(() => () => {}) as never;

describeModel({
  name: 'callRoom',
  machine: callRoomMachine.provide({
    actors: { serverEvents: quiet, hand: hang, moderate: hang, currentHands: hang },
  }),
  inputs: [{ conversationId: 'g1' }],
  contextKey: (c) =>
    `${c.hands.join()}|${c.mutedTimes}|${c.notice ?? ''}|${c.raise}|${c.request?.action ?? ''}|${c.heard}`,
  events: {
    'room.raiseHand': () => [{ type: 'room.raiseHand' }],
    'room.lowerHand': () => [{ type: 'room.lowerHand' }],
    'room.moderate': () => [
      { type: 'room.moderate', action: 'mute', userId: 'u-b' },
      { type: 'room.moderate', action: 'remove', userId: 'u-b' },
    ],
    'room.dismissNotice': () => [{ type: 'room.dismissNotice' }],
    // Another group's state or mute leaves this call's alone.
    'room.state': () => [
      { type: 'room.state', conversationId: 'g1', hands: ['u-v', 'u-b'] },
      { type: 'room.state', conversationId: 'g9', hands: ['u-x'] },
    ],
    'room.muted': (s) =>
      s.context.mutedTimes > 0
        ? [{ type: 'room.muted', conversationId: 'g9' }]
        : [
            { type: 'room.muted', conversationId: 'g1' },
            { type: 'room.muted', conversationId: 'g9' },
          ],
    // The first read of the hands counts only while no state has come.
    'xstate.done.actor.currentHands': () => [{ type: 'xstate.done.actor.currentHands', output: ['u-g'] }],
    'xstate.done.actor.hand': () => [
      { type: 'xstate.done.actor.hand', output: { ok: true } },
      { type: 'xstate.done.actor.hand', output: { ok: false, message: 'Поднять руку можно только в звонке' } },
    ],
    'xstate.done.actor.moderate': () => [{ type: 'xstate.done.actor.moderate', output: { ok: true } }],
    'xstate.error.actor.moderate': () => [
      {
        type: 'xstate.error.actor.moderate',
        error: new RequestFailure(
          403,
          'Выключать микрофон и удалять из звонка могут только владелец и администраторы группы',
        ),
      },
    ],
  },
});

describe('callRoom with a server', () => {
  it('asks the server to raise and lower the hand; the hands come from the call’s state, in its order', async () => {
    const asked: unknown[] = [];
    const answers: Ack[] = [{ ok: true }, { ok: false, message: 'Поднять руку можно только в звонке' }];
    const actor = createActor(
      callRoomMachine.provide({
        actors: {
          serverEvents: quiet,
          currentHands: hang,
          hand: fromPromise(async ({ input }) => {
            asked.push(input);
            return answers.shift() ?? { ok: true };
          }) as never,
          moderate: hang,
        },
      }),
      { input: { conversationId: 'g1' } },
    ).start();
    actor.send({ type: 'room.raiseHand' });
    expect(actor.getSnapshot().hasTag(CALL_ROOM_TAGS.busy)).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(asked).toEqual([{ name: 'groupCall:hand', payload: { conversationId: 'g1', raised: true } }]);
    actor.send({ type: 'room.state', conversationId: 'g1', hands: ['u-v', 'u-me'] });
    expect(actor.getSnapshot().context.hands).toEqual(['u-v', 'u-me']);
    actor.send({ type: 'room.lowerHand' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(asked[1]).toEqual({ name: 'groupCall:hand', payload: { conversationId: 'g1', raised: false } });
    // The server's refusal is said as it is.
    expect(actor.getSnapshot().context.notice).toBe('Поднять руку можно только в звонке');
    actor.send({ type: 'room.dismissNotice' });
    expect(actor.getSnapshot().context.notice).toBeNull();
  });

  it('mutes and removes through its effect; a refusal is the server’s words; being muted counts and says so', async () => {
    const asked: unknown[] = [];
    const fail = [false, true];
    const actor = createActor(
      callRoomMachine.provide({
        actors: {
          serverEvents: quiet,
          currentHands: hang,
          hand: hang,
          moderate: fromPromise(async ({ input }) => {
            asked.push(input);
            if (fail.shift()) throw new RequestFailure(403, 'Этого участника нет в звонке');
            return { ok: true as const };
          }) as never,
        },
      }),
      { input: { conversationId: 'g1' } },
    ).start();
    actor.send({ type: 'room.moderate', action: 'mute', userId: 'u-b' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'room.moderate', action: 'remove', userId: 'u-b' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(asked).toEqual([
      { conversationId: 'g1', userId: 'u-b', action: 'mute' },
      { conversationId: 'g1', userId: 'u-b', action: 'remove' },
    ]);
    expect(actor.getSnapshot().context.notice).toBe('Этого участника нет в звонке');
    actor.send({ type: 'room.muted', conversationId: 'g2' });
    expect(actor.getSnapshot().context.mutedTimes).toBe(0);
    actor.send({ type: 'room.muted', conversationId: 'g1' });
    actor.send({ type: 'room.muted', conversationId: 'g1' });
    expect(actor.getSnapshot().context).toMatchObject({ mutedTimes: 2, notice: CALL_ROOM_NOTICES.muted });
  });

  it('takes the hands raised before it opened, unless a newer state of the call came first', async () => {
    const start = (answer: Promise<string[]>) =>
      createActor(
        callRoomMachine.provide({
          actors: {
            serverEvents: quiet,
            hand: hang,
            moderate: hang,
            currentHands: fromPromise(() => answer) as never,
          },
        }),
        { input: { conversationId: 'g1' } },
      ).start();
    const first = start(Promise.resolve(['u-v', 'u-b']));
    await waitFor(first, (s) => s.context.hands.length === 2);
    expect(first.getSnapshot().context.hands).toEqual(['u-v', 'u-b']);

    let answer: (hands: string[]) => void = () => {};
    const late = start(new Promise<string[]>((r) => (answer = r)));
    late.send({ type: 'room.state', conversationId: 'g1', hands: ['u-b'] });
    answer(['u-v', 'u-b']);
    await new Promise((r) => setTimeout(r, 0));
    expect(late.getSnapshot().context.hands).toEqual(['u-b']);
  });

  it('hears the server through the realtime actor: groupCall:state and groupCall:muted of its own group', () => {
    const realtime = setup({ types: {} as { events: { type: 'push'; name: string; payload: unknown } } }).createMachine(
      {
        on: {
          push: { actions: emit(({ event }) => ({ type: 'server.event', name: event.name, payload: event.payload })) },
        },
      },
    );
    const room = callRoomMachine.provide({ actors: { hand: hang, moderate: hang, currentHands: hang } });
    const root = setup({ actors: { realtime, room } }).createMachine({
      context: ({ spawn }) => ({
        realtime: spawn('realtime', { systemId: 'realtime' }),
        room: spawn('room', { input: { conversationId: 'g1' } }),
      }),
    });
    const app = createActor(root).start();
    const { realtime: socket, room: actor } = app.getSnapshot().context as { realtime: AnyActorRef; room: AnyActorRef };
    const call = (id: string, hands: string[]) => ({
      conversationId: id,
      call: {
        conversationId: id,
        startedAt: '2026-01-01T00:00:00.000Z',
        startedBy: 'u-a',
        video: false,
        participantIds: hands,
        hands,
      },
    });
    socket.send({ type: 'push', name: 'groupCall:state', payload: call('g1', ['u-v', 'u-b']) });
    socket.send({ type: 'push', name: 'groupCall:state', payload: call('g9', ['u-x']) });
    socket.send({ type: 'push', name: 'groupCall:muted', payload: { conversationId: 'g9' } });
    expect(actor.getSnapshot().context).toMatchObject({ hands: ['u-v', 'u-b'], mutedTimes: 0 });
    socket.send({ type: 'push', name: 'groupCall:muted', payload: { conversationId: 'g1' } });
    expect(actor.getSnapshot().context.mutedTimes).toBe(1);
    // The call's end says nothing of hands: they stay as they were until the overlay closes.
    socket.send({ type: 'push', name: 'groupCall:state', payload: { conversationId: 'g1', call: null } });
    expect(actor.getSnapshot().context.hands).toEqual(['u-v', 'u-b']);
    app.stop();
  });
});
