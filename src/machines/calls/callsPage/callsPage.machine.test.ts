import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { MediaProblem } from '../../shared/secure-context.protocol';
import { CALL_NOTICES } from '../call/call.protocol';
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
const mediaOk = fromPromise<MediaProblem | null, { video: boolean }>(async () => null);

describeModel({
  name: 'callsPage',
  machine: callsPageMachine.provide({
    actors: {
      fetchToken: hang<RoomAccess>() as never,
      serverAddress: hang<string | null>() as never,
      loadHistory: hang<CallHistoryEntry[]>() as never,
      checkMedia: hang<MediaProblem | null>() as never,
    },
  }),
  events: {
    'room.join': () => [
      { type: 'room.join', room: ' team ', name: 'Анна' },
      { type: 'room.join', room: '   ', name: 'Анна' },
    ],
    'room.failed': () => [{ type: 'room.failed', message: 'no livekit url provided' }],
    'xstate.done.actor.checkMedia': () => [
      { type: 'xstate.done.actor.checkMedia', output: null },
      { type: 'xstate.done.actor.checkMedia', output: { kind: 'insecure', secureUrl: 'https://beseda.example' } },
    ],
    'xstate.error.actor.checkMedia': () => [{ type: 'xstate.error.actor.checkMedia', error: new Error('boom') }],
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
          checkMedia: mediaOk,
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
    await waitFor(actor, (s) => s.matches({ room: 'joining' }));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(asked).toEqual([{ room: 'demo-room', participantName: DEFAULT_GUEST_NAME }]);
    answer(access);
    await waitFor(actor, (s) => s.matches({ room: 'inRoom' }));
    expect(actor.getSnapshot().context).toMatchObject({ access, serverUrl: access.url, error: null });
    actor.send({ type: 'room.left' });
    expect(actor.getSnapshot().matches({ room: 'form' })).toBe(true);
    expect(actor.getSnapshot().context.access).toBeNull();
  });

  it('shows why a token was refused, and Russian, never the library’s English, when the conference cannot connect', async () => {
    let fail = true;
    const actor = createActor(
      callsPageMachine.provide({
        actors: {
          loadHistory: noHistory,
          checkMedia: mediaOk,
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
    expect(actor.getSnapshot().context.error).toBe(ROOM_FAILED);
    expect(actor.getSnapshot().hasTag('form')).toBe(true);
    // A device error by its name, a Russian reason as it is.
    for (const [failure, text] of [
      [{ message: 'Permission denied', name: 'NotAllowedError' }, CALL_NOTICES.mediaDenied],
      [{ message: 'Could not start video source', name: 'NotReadableError' }, CALL_NOTICES.mediaBusy],
      [{ message: 'Сервер видеозвонков недоступен' }, 'Сервер видеозвонков недоступен'],
    ] as const) {
      actor.send({ type: 'room.join', room: 'x', name: 'Анна' });
      await waitFor(actor, (s) => s.matches({ room: 'inRoom' }));
      expect(actor.getSnapshot().context.error).toBeNull();
      actor.send({ type: 'room.failed', ...failure });
      expect(actor.getSnapshot().context).toMatchObject({ error: text, access: null });
    }
  });

  it('on a page that is not a secure context, says where calls work and never asks for a token', async () => {
    const asked: unknown[] = [];
    const checked: unknown[] = [];
    let problem: MediaProblem | null = { kind: 'insecure', secureUrl: 'https://chat.example.org' };
    const actor = createActor(
      callsPageMachine.provide({
        actors: {
          loadHistory: noHistory,
          checkMedia: fromPromise(async ({ input }) => {
            checked.push(input);
            return problem;
          }),
          fetchToken: fromPromise(async ({ input }) => {
            asked.push(input);
            return access;
          }),
        },
      }),
    ).start();
    actor.send({ type: 'room.join', room: 'team', name: 'Анна' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches({ room: 'form' }));
    expect(checked).toEqual([{ video: true }]);
    expect(actor.getSnapshot().context).toMatchObject({
      insecure: { secureUrl: 'https://chat.example.org' },
      error: null,
      access: null,
    });
    expect(asked).toEqual([]);
    problem = { kind: 'insecure', secureUrl: null };
    actor.send({ type: 'room.join', room: 'team', name: 'Анна' });
    await waitFor(actor, (s) => s.matches({ room: 'form' }) && s.context.insecure !== null);
    expect(actor.getSnapshot().context.insecure).toEqual({ secureUrl: null });
    expect(asked).toEqual([]);
    // Back on a secure page: the notice goes and the room is joined.
    problem = null;
    actor.send({ type: 'room.join', room: 'team', name: 'Анна' });
    expect(actor.getSnapshot().context.insecure).toBeNull();
    await waitFor(actor, (s) => s.matches({ room: 'inRoom' }));
    expect(asked).toEqual([{ room: 'team', participantName: 'Анна' }]);
  });

  it('without the microphone or camera, gives the Russian reason and never asks for a token', async () => {
    const asked: unknown[] = [];
    let answer: () => Promise<MediaProblem | null> = async () => ({ kind: 'denied' });
    const actor = createActor(
      callsPageMachine.provide({
        actors: {
          loadHistory: noHistory,
          checkMedia: fromPromise(() => answer()),
          fetchToken: fromPromise(async ({ input }) => {
            asked.push(input);
            return access;
          }),
        },
      }),
    ).start();
    const join = async () => {
      actor.send({ type: 'room.join', room: 'team', name: 'Анна' });
      await waitFor(actor, (s) => s.matches({ room: 'form' }));
      return actor.getSnapshot().context;
    };
    expect(await join()).toMatchObject({ error: CALL_NOTICES.mediaDenied, insecure: null });
    answer = async () => ({ kind: 'missing' });
    expect((await join()).error).toBe(CALL_NOTICES.mediaMissing);
    answer = async () => ({ kind: 'busy' });
    expect((await join()).error).toBe(CALL_NOTICES.mediaBusy);
    answer = async () => ({ kind: 'unsupported' });
    expect((await join()).error).toBe(CALL_NOTICES.mediaUnsupported);
    answer = async () => {
      throw new Error('boom');
    };
    expect((await join()).error).toBe(CALL_NOTICES.mediaFailed);
    expect(asked).toEqual([]);
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
