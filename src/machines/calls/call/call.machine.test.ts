import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, assign, createActor, createMachine, fromCallback, fromPromise, setup } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { Ack } from '../../../contract/events';
import { CALL_NOTICES, type CallPeer, callMachine, type RoomAccess } from './call.machine';

const hang = <T>() => fromPromise<T, unknown>(() => new Promise<never>(() => {}));
const quiet = fromCallback(() => () => {});
const caller: CallPeer = { id: 'u-caller', name: 'Анна' };
const me: CallPeer = { id: 'u-me', name: 'Борис' };
const other: CallPeer = { id: 'u-other', name: 'Вера' };
const access: RoomAccess = { token: 'jwt', url: 'ws://127.0.0.1:7880' };

describeModel({
  name: 'call',
  machine: callMachine.provide({
    actors: {
      serverEvents: quiet as never,
      session: quiet as never,
      ring: quiet,
      ringback: quiet,
      fetchToken: hang<RoomAccess>() as never,
      invite: hang<Ack>() as never,
    },
    // Who "me" is comes from the session actor, absent here; the action itself is tested below.
    actions: {
      startIncoming: assign(({ event }) => {
        const e = event as { conversationId: string; from: CallPeer; video: boolean };
        return { incoming: { conversationId: e.conversationId, from: e.from, video: e.video }, me: me.id };
      }),
    },
  }),
  events: {
    'call.startOutgoing': () => [{ type: 'call.startOutgoing', conversationId: 'c1', video: true }],
    // While busy, a second call (listed first: paths are keyed by event type, so the first variant that
    // reaches a state is the one kept) is declined; the same invitation again is ignored.
    'call.startIncoming': (s) => [
      ...(s.value === 'idle' ? [] : [{ type: 'call.startIncoming', conversationId: 'c3', from: other, video: false }]),
      { type: 'call.startIncoming', conversationId: 'c2', from: caller, video: true },
    ],
    'call.failed': () => [{ type: 'call.failed', message: 'no livekit url provided' }],
    'call.accept': () => [
      { type: 'call.accept', video: true },
      { type: 'call.accept', video: false },
    ],
    'call.remoteAccepted': (s) =>
      s.matches('ringing')
        ? [
            { type: 'call.remoteAccepted', conversationId: 'c2', from: me, video: false },
            { type: 'call.remoteAccepted', conversationId: 'c2', from: other, video: false },
          ]
        : [{ type: 'call.remoteAccepted', conversationId: 'c1', from: other, video: true }],
    'call.remoteDeclined': (s) =>
      s.matches('ringing')
        ? [
            { type: 'call.remoteDeclined', conversationId: 'c2', from: me },
            { type: 'call.remoteDeclined', conversationId: 'c2', from: other },
          ]
        : [{ type: 'call.remoteDeclined', conversationId: 'c1', from: other }],
    'call.remoteEnded': (s) => [
      { type: 'call.remoteEnded', conversationId: s.matches('ringing') ? 'c2' : 'c1', from: caller },
      { type: 'call.remoteEnded', conversationId: 'c9', from: other },
    ],
    'xstate.done.actor.fetchToken': () => [{ type: 'xstate.done.actor.fetchToken', output: access }],
    'xstate.error.actor.fetchToken': () => [{ type: 'xstate.error.actor.fetchToken', error: new Error('403') }],
    'xstate.done.actor.invite': () => [
      { type: 'xstate.done.actor.invite', output: { ok: true } },
      { type: 'xstate.done.actor.invite', output: { ok: false, message: 'Собеседник не в сети' } },
    ],
  },
});

// The machine inside a tiny system with a realtime actor that records emits and a session that knows the user.
function inSystem(overrides: { actors?: Record<string, unknown> } = {}) {
  const emits: unknown[] = [];
  const realtime = createMachine({
    on: { 'realtime.emit': { actions: ({ event }) => emits.push({ name: event.name, payload: event.payload }) } },
  });
  const session = createMachine({ context: { session: { user: { id: me.id } } } });
  const sounds: string[] = [];
  const sound = (name: string) =>
    fromCallback(() => {
      sounds.push(`start ${name}`);
      return () => sounds.push(`stop ${name}`);
    });
  const call = callMachine.provide({
    actors: {
      serverEvents: quiet as never,
      ring: sound('ring'),
      ringback: sound('ringback'),
      fetchToken: fromPromise(async () => access) as never,
      invite: fromPromise(async () => ({ ok: true })) as never,
      ...(overrides.actors as object),
    },
  });
  const root = setup({ actors: { realtime, session, call } }).createMachine({
    context: ({ spawn }) => ({
      realtime: spawn('realtime', { systemId: 'realtime' }),
      session: spawn('session', { systemId: 'session' }),
      call: spawn('call', { systemId: 'call' }),
    }),
  });
  const actor = createActor(root).start();
  const ref = actor.system.get('call') as AnyActorRef;
  return { actor, call: ref, emits, sounds, snap: () => ref.getSnapshot() };
}

afterEach(() => vi.useRealTimers());

describe('call: the callee', () => {
  it('rings for 25 s, then dismisses itself and declines to the caller', () => {
    vi.useFakeTimers();
    const { call, emits, sounds, snap } = inSystem();
    call.send({ type: 'call.startIncoming', conversationId: 'c2', from: caller, video: true });
    expect(snap().hasTag('ringing')).toBe(true);
    expect(snap().context.incoming).toEqual({ conversationId: 'c2', from: caller, video: true });
    expect(sounds).toEqual(['start ring']);
    vi.advanceTimersByTime(24_999);
    expect(snap().value).toBe('ringing');
    vi.advanceTimersByTime(1);
    expect(snap().value).toBe('idle');
    expect(snap().context.incoming).toBeNull();
    expect(sounds).toEqual(['start ring', 'stop ring']);
    expect(emits).toEqual([{ name: 'call:decline', payload: { conversationId: 'c2' } }]);
  });

  it('answers with video: call:accept, the room token for conv-{id}, audio on', async () => {
    const requested: unknown[] = [];
    const { call, emits, sounds, snap } = inSystem({
      actors: {
        fetchToken: fromPromise(async ({ input }) => {
          requested.push(input);
          return access;
        }) as never,
      },
    });
    call.send({ type: 'call.startIncoming', conversationId: 'c2', from: caller, video: false });
    call.send({ type: 'call.accept', video: true });
    expect(emits).toEqual([{ name: 'call:accept', payload: { conversationId: 'c2', video: true } }]);
    expect(sounds).toEqual(['start ring', 'stop ring']);
    expect(snap().matches({ inCall: { signal: 'connected' } })).toBe(true);
    expect(snap().context).toMatchObject({
      activeConvId: 'c2',
      initialVideo: true,
      initialAudio: true,
      incoming: null,
    });
    await vi.waitFor(() => expect(snap().context.access).toEqual(access));
    expect(requested).toEqual([{ room: 'conv-c2' }]);
    call.send({ type: 'call.end' });
    expect(emits.at(-1)).toEqual({ name: 'call:end', payload: { conversationId: 'c2' } });
    expect(snap().context).toMatchObject({ activeConvId: null, access: null, initialVideo: false });
  });

  it('stops ringing when this user answers or declines in another tab, not when another member does', () => {
    const { call, snap, emits } = inSystem();
    call.send({ type: 'call.startIncoming', conversationId: 'c2', from: caller, video: true });
    expect(snap().context.me).toBe(me.id);
    call.send({ type: 'call.remoteAccepted', conversationId: 'c2', from: other, video: true });
    expect(snap().value).toBe('ringing');
    call.send({ type: 'call.remoteAccepted', conversationId: 'c2', from: me, video: true });
    expect(snap().value).toBe('idle');
    call.send({ type: 'call.startIncoming', conversationId: 'c2', from: caller, video: true });
    call.send({ type: 'call.remoteDeclined', conversationId: 'c2', from: me });
    expect(snap().value).toBe('idle');
    expect(emits).toEqual([]);
  });

  it('closes the dialog when the caller cancels, and declines a second call while busy', () => {
    const { call, snap, emits } = inSystem();
    call.send({ type: 'call.startIncoming', conversationId: 'c2', from: caller, video: true });
    call.send({ type: 'call.startIncoming', conversationId: 'c3', from: other, video: false });
    expect(emits).toEqual([{ name: 'call:decline', payload: { conversationId: 'c3' } }]);
    expect(snap().context.incoming?.conversationId).toBe('c2');
    call.send({ type: 'call.remoteEnded', conversationId: 'c2', from: caller });
    expect(snap().value).toBe('idle');
  });
});

describe('call: the call layer goes away (sign-out)', () => {
  it('stops ringing and declines', () => {
    const { call, snap, emits, sounds } = inSystem();
    call.send({ type: 'call.startIncoming', conversationId: 'c2', from: caller, video: true });
    call.send({ type: 'call.end' });
    expect(snap().value).toBe('idle');
    expect(sounds).toEqual(['start ring', 'stop ring']);
    expect(emits).toEqual([{ name: 'call:decline', payload: { conversationId: 'c2' } }]);
  });
});

describe('call: the caller', () => {
  it('opens the call with audio on and the chosen video, invites, hears a ring-back, connects on accept', async () => {
    const invites: unknown[] = [];
    const { call, sounds, snap } = inSystem({
      actors: {
        invite: fromPromise(async ({ input }) => {
          invites.push(input);
          return { ok: true };
        }) as never,
      },
    });
    call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: false });
    expect(snap().context).toMatchObject({
      activeConvId: 'c1',
      initialVideo: false,
      initialAudio: true,
      incoming: null,
    });
    expect(snap().hasTag('calling')).toBe(true);
    await vi.waitFor(() => expect(snap().matches({ inCall: { signal: 'waiting' } })).toBe(true));
    expect(invites).toEqual([{ name: 'call:invite', payload: { conversationId: 'c1', video: false } }]);
    expect(sounds).toEqual(['start ringback']);
    call.send({ type: 'call.remoteAccepted', conversationId: 'c1', from: other, video: true });
    expect(snap().matches({ inCall: { signal: 'connected' } })).toBe(true);
    expect(sounds).toEqual(['start ringback', 'stop ringback']);
  });

  it('ends at once with the server’s reason when nobody can be reached', async () => {
    const { call, snap } = inSystem({
      actors: { invite: fromPromise(async () => ({ ok: false, message: 'Собеседник сейчас не в сети' })) as never },
    });
    call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: true });
    await vi.waitFor(() => expect(snap().value).toBe('idle'));
    expect(snap().context.notice).toBe('Собеседник сейчас не в сети');
    call.send({ type: 'call.dismissNotice' });
    expect(snap().context.notice).toBeNull();
  });

  it('gives up after 25 s without an answer and tells the callee', async () => {
    vi.useFakeTimers();
    const { call, snap, emits } = inSystem();
    call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(snap().matches({ inCall: { signal: 'waiting' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(24_999);
    expect(snap().matches({ inCall: { signal: 'waiting' } })).toBe(true);
    expect(emits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(snap().value).toBe('idle');
    expect(snap().context.notice).toBe(CALL_NOTICES.noAnswer);
    expect(emits).toEqual([{ name: 'call:end', payload: { conversationId: 'c1' } }]);
  });

  it('can cancel while it rings; a decline closes the call with a notice', async () => {
    const { call, snap, emits } = inSystem();
    call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: true });
    await vi.waitFor(() => expect(snap().matches({ inCall: { signal: 'waiting' } })).toBe(true));
    call.send({ type: 'call.end' });
    expect(emits).toEqual([{ name: 'call:end', payload: { conversationId: 'c1' } }]);
    call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: true });
    await vi.waitFor(() => expect(snap().matches({ inCall: { signal: 'waiting' } })).toBe(true));
    call.send({ type: 'call.remoteDeclined', conversationId: 'c1', from: other });
    expect(snap().value).toBe('idle');
    expect(snap().context.notice).toBe(CALL_NOTICES.declined);
  });
});
