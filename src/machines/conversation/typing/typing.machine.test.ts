import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { typingMachine } from './typing.machine';

const quiet = fromCallback(() => () => {}) as never; // a listener that hears nothing
const stubbed = typingMachine.provide({ actors: { serverEvents: quiet, signal: quiet } });
const input = { conversationId: 'c1', userId: 'me' };

describeModel({
  name: 'typing',
  machine: stubbed,
  inputs: [input],
  events: {
    // Only events that change something, so no no-op repeat takes the place of a real transition in a path
    // (paths are keyed by event type and the state reached); ignored events are offered while nobody types.
    'typing.remote': (s) => [
      ...['u2', 'u3'].map((userId) => ({
        type: 'typing.remote',
        conversationId: 'c1',
        userId,
        typing: !s.context.typers.includes(userId),
      })),
      ...(s.context.typers.length === 0
        ? [
            { type: 'typing.remote', conversationId: 'c2', userId: 'u2', typing: true },
            { type: 'typing.remote', conversationId: 'c1', userId: 'me', typing: true },
          ]
        : []),
    ],
    'typing.remoteSent': (s) => s.context.typers.map((userId: string) => ({ type: 'typing.remoteSent', userId })),
    // The two timers run in parallel regions; the model fires each only while the other region rests, so a
    // replayed path never lets one timer's clock run the other out.
    'xstate.after.typingDots.typing.others.shown': (s) =>
      s.matches({ own: 'idle' }) ? [{ type: 'xstate.after.typingDots.typing.others.shown' }] : [],
    'xstate.after.typingIdle.typing.own.typing.active': (s) =>
      s.matches({ others: 'hidden' }) ? [{ type: 'xstate.after.typingIdle.typing.own.typing.active' }] : [],
  },
  contextKey: (c) => ({ typers: c.typers, dots: c.dots }),
});

describe('typing signals', () => {
  // A stand-in realtime actor records what the conversation would tell the server.
  function withRealtime() {
    const emits: unknown[] = [];
    const realtime = createMachine({
      types: { events: {} as { type: 'realtime.emit'; payload: unknown } },
      on: { 'realtime.emit': { actions: ({ event }) => emits.push(event.payload) } },
    });
    const parent = createMachine({
      invoke: { id: 'realtime', systemId: 'realtime', src: realtime },
      initial: 'open',
      states: {
        open: {
          invoke: {
            id: 'typing',
            systemId: 'typing',
            src: typingMachine.provide({ actors: { serverEvents: quiet } }),
            input,
          },
          on: { close: 'closed' },
        },
        closed: {},
      },
    });
    const actor = createActor(parent).start();
    const typing = actor.system.get('typing');
    return { actor, typing, emits };
  }

  it('says typing-on at the first keystroke and typing-off 1.5 s after the last', () => {
    vi.useFakeTimers();
    const { actor, typing, emits } = withRealtime();
    typing.send({ type: 'typing.keystroke' });
    vi.advanceTimersByTime(1_000);
    typing.send({ type: 'typing.keystroke' });
    vi.advanceTimersByTime(1_499);
    expect(emits).toEqual([{ conversationId: 'c1', typing: true }]);
    vi.advanceTimersByTime(1);
    expect(emits).toEqual([
      { conversationId: 'c1', typing: true },
      { conversationId: 'c1', typing: false },
    ]);
    actor.stop();
    vi.useRealTimers();
  });

  it('says typing-off when the conversation closes mid-typing', () => {
    const { actor, typing, emits } = withRealtime();
    typing.send({ type: 'typing.keystroke' });
    actor.send({ type: 'close' });
    actor.stop();
    expect(emits).toEqual([
      { conversationId: 'c1', typing: true },
      { conversationId: 'c1', typing: false },
    ]);
  });

  it('cycles the dots every 500 ms while someone types', () => {
    vi.useFakeTimers();
    const actor = createActor(stubbed, { input }).start();
    actor.send({ type: 'typing.remote', conversationId: 'c1', userId: 'u2', typing: true });
    const dots = [actor.getSnapshot().context.dots];
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(500);
      dots.push(actor.getSnapshot().context.dots);
    }
    expect(dots).toEqual([1, 2, 3, 1]);
    expect(actor.getSnapshot().hasTag('othersTyping')).toBe(true);
    actor.send({ type: 'typing.remoteSent', userId: 'u2' });
    expect(actor.getSnapshot().hasTag('othersTyping')).toBe(false);
    actor.stop();
    vi.useRealTimers();
  });
});
