import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, sendTo } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { VOICE } from '../../../contract/limits';
import { type Recording, type RecordingCommand, recorderMachine } from './recorder.machine';

const recording: Recording = {
  file: new Blob(['x'], { type: 'audio/webm' }),
  durationMs: 3000,
  waveform: [1, 50, 100],
  at: '2025-03-01T10:00:00.000Z',
};
/** The recording actor stubbed: it reports nothing by itself and remembers what it was told. */
const told: RecordingCommand[] = [];
const stubbed = recorderMachine.provide({
  actors: {
    record: fromCallback<RecordingCommand>(({ receive }) => {
      receive((c) => told.push(c));
    }),
  },
});

describeModel({
  name: 'recorder',
  machine: stubbed,
  contextKey: (c) => ({ error: c.error, recording: c.elapsedMs > 0, thread: c.thread?.rootId ?? null }),
  events: {
    'recorder.start': () => [
      { type: 'recorder.start' },
      { type: 'recorder.start', thread: { conversationId: 'g1', rootId: 'r1' } },
    ],
    'recording.level': () => [{ type: 'recording.level', level: 0.5, elapsedMs: 1200 }],
    'recording.done': () => [{ type: 'recording.done', recording }],
    'recording.failed': () => [{ type: 'recording.failed', message: 'Нет доступа к микрофону' }],
    'recording.insecure': () => [{ type: 'recording.insecure', secureUrl: 'https://beseda.example' }],
  },
});

describe('recorder rules', () => {
  it('stops by itself after five minutes, asks the actor to stop, and hands the recording to its parent', () => {
    vi.useFakeTimers();
    told.length = 0;
    const got: unknown[] = [];
    const parent = createMachine({
      invoke: { id: 'recorder', src: stubbed },
      on: {
        'recorder.recorded': { actions: ({ event }) => got.push(event) },
        '*': { actions: sendTo('recorder', ({ event }) => event) },
      },
    });
    const actor = createActor(parent).start();
    const rec = actor.getSnapshot().children.recorder!;
    rec.send({ type: 'recorder.start' });
    rec.send({ type: 'recording.started' });
    vi.advanceTimersByTime(VOICE.maxDurationMs - 1);
    expect(rec.getSnapshot().hasTag('recording')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(rec.getSnapshot().hasTag('busy')).toBe(true);
    expect(told).toEqual([{ type: 'recording.stop' }]);
    rec.send({ type: 'recording.done', recording });
    expect(got).toEqual([{ type: 'recorder.recorded', recording }]);
    expect(rec.getSnapshot().value).toBe('idle');
    vi.useRealTimers();
  });

  it('a recording started from a thread panel goes to that thread; the next one, from the chat, to the chat', () => {
    const got: unknown[] = [];
    const parent = createMachine({
      invoke: { id: 'recorder', src: stubbed },
      on: { 'recorder.recorded': { actions: ({ event }) => got.push(event) } },
    });
    const actor = createActor(parent).start();
    const rec = actor.getSnapshot().children.recorder!;
    const thread = { conversationId: 'g1', rootId: 'r1' };
    for (const start of [{ type: 'recorder.start', thread } as const, { type: 'recorder.start' } as const]) {
      rec.send(start);
      rec.send({ type: 'recording.started' });
      rec.send({ type: 'recorder.send' });
      rec.send({ type: 'recording.done', recording });
    }
    expect(got).toEqual([
      { type: 'recorder.recorded', recording, thread },
      { type: 'recorder.recorded', recording },
    ]);
  });

  it('cancel drops the recording: nothing reaches the parent', () => {
    const actor = createActor(stubbed).start();
    actor.send({ type: 'recorder.start' });
    actor.send({ type: 'recording.started' });
    actor.send({ type: 'recording.level', level: 0.3, elapsedMs: 900 });
    expect(actor.getSnapshot().context).toMatchObject({ level: 0.3, elapsedMs: 900 });
    actor.send({ type: 'recorder.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toEqual({ thread: null, elapsedMs: 0, level: 0, error: null, insecure: null });
  });

  it('keeps the reason a microphone was refused until the user tries again or dismisses it', () => {
    const actor = createActor(stubbed).start();
    actor.send({ type: 'recorder.start' });
    actor.send({ type: 'recording.failed', message: 'Доступ к микрофону запрещён' });
    expect(actor.getSnapshot().hasTag('failed')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Доступ к микрофону запрещён');
    actor.send({ type: 'recorder.start' });
    expect(actor.getSnapshot().hasTag('asking')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('on a plain-http page it fails with where the https address is, until dismissed', () => {
    const actor = createActor(stubbed).start();
    actor.send({ type: 'recorder.start' });
    actor.send({ type: 'recording.insecure', secureUrl: 'https://beseda.example' });
    expect(actor.getSnapshot().hasTag('failed')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({
      insecure: { secureUrl: 'https://beseda.example' },
      error: null,
    });
    actor.send({ type: 'recorder.dismiss' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.insecure).toBeNull();
  });
});
