import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, assign, createActor, createMachine, emit, fromCallback, fromPromise, setup } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { Ack } from '../../../contract/events';
import type { MediaProblem } from '../../shared/secure-context.protocol';
import { CALL_NOTICES, type CallPeer, callMachine, failureNotice, type RoomAccess } from './call.machine';

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
      checkMedia: hang<MediaProblem | null>() as never,
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
    'call.startOutgoing': () => [
      { type: 'call.startOutgoing', conversationId: 'c1', video: true },
      // A group's call: the server's acknowledgement lets it in (no ring-back, nobody to wait for).
      { type: 'call.startOutgoing', conversationId: 'c1', video: true, group: 'start' },
    ],
    // While busy, a second call (listed first: paths are keyed by event type, so the first variant that
    // reaches a state is the one kept) is declined; the same invitation again is ignored.
    'call.startIncoming': (s) => [
      ...(s.value === 'idle' ? [] : [{ type: 'call.startIncoming', conversationId: 'c3', from: other, video: false }]),
      { type: 'call.startIncoming', conversationId: 'c2', from: caller, video: true },
    ],
    'call.failed': () => [{ type: 'call.failed', message: 'no livekit url provided' }],
    'xstate.done.actor.checkMedia': () => [
      { type: 'xstate.done.actor.checkMedia', output: null },
      { type: 'xstate.done.actor.checkMedia', output: { kind: 'insecure', secureUrl: 'https://beseda.example' } },
    ],
    'xstate.error.actor.checkMedia': () => [{ type: 'xstate.error.actor.checkMedia', error: new Error('boom') }],
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
      {
        type: 'call.remoteEnded',
        conversationId: s.matches('ringing') || s.matches('answering') ? 'c2' : 'c1',
        from: caller,
      },
      { type: 'call.remoteEnded', conversationId: 'c9', from: other },
    ],
    'call.removed': () => [
      { type: 'call.removed', conversationId: 'c1' },
      { type: 'call.removed', conversationId: 'c9' },
    ],
    'xstate.done.actor.fetchToken': () => [{ type: 'xstate.done.actor.fetchToken', output: access }],
    'xstate.error.actor.fetchToken': () => [{ type: 'xstate.error.actor.fetchToken', error: new Error('403') }],
    'call.noiseSuppression': () => [{ type: 'call.noiseSuppression', on: false }],
    'call.noiseRunning': () => [{ type: 'call.noiseRunning', running: true }],
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
      checkMedia: fromPromise(async () => null) as never,
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
    expect(sounds).toEqual(['start ring', 'stop ring']);
    await vi.waitFor(() => expect(snap().matches({ inCall: { signal: 'connected' } })).toBe(true));
    expect(emits).toEqual([{ name: 'call:accept', payload: { conversationId: 'c2', video: true } }]);
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
    await vi.waitFor(() => expect(snap().hasTag('calling')).toBe(true));
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

describe('call: no microphone or camera (a plain-http page, refused, none)', () => {
  const media = (answer: MediaProblem | null) => {
    const asked: unknown[] = [];
    return {
      asked,
      actor: fromPromise(async ({ input }) => {
        asked.push(input);
        return answer;
      }) as never,
    };
  };

  it('on a plain-http page the caller invites nobody, sends no end, and is told to use the https address', async () => {
    const check = media({ kind: 'insecure', secureUrl: 'https://beseda.example' });
    const invites: unknown[] = [];
    const { call, snap, emits } = inSystem({
      actors: {
        checkMedia: check.actor,
        invite: fromPromise(async ({ input }) => {
          invites.push(input);
          return { ok: true };
        }) as never,
      },
    });
    call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: true });
    expect(snap().hasTag('preparing')).toBe(true);
    expect(snap().hasTag('open')).toBe(false);
    await vi.waitFor(() => expect(snap().value).toBe('idle'));
    expect(check.asked).toEqual([{ video: true }]);
    expect(invites).toEqual([]);
    expect(emits).toEqual([]);
    expect(snap().context).toMatchObject({ insecure: { secureUrl: 'https://beseda.example' }, notice: null });
    call.send({ type: 'call.dismissNotice' });
    expect(snap().context.insecure).toBeNull();
  });

  it('a refused or missing microphone is said in Russian, and nothing is sent', async () => {
    for (const [problem, text] of [
      [{ kind: 'denied' }, CALL_NOTICES.mediaDenied],
      [{ kind: 'missing' }, CALL_NOTICES.mediaMissing],
      [{ kind: 'busy' }, CALL_NOTICES.mediaBusy],
      [{ kind: 'unsupported' }, CALL_NOTICES.mediaUnsupported],
      [{ kind: 'failed' }, CALL_NOTICES.mediaFailed],
    ] as const) {
      const { call, snap, emits } = inSystem({ actors: { checkMedia: media(problem).actor } });
      call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: false });
      await vi.waitFor(() => expect(snap().value).toBe('idle'));
      expect(snap().context).toMatchObject({ notice: text, insecure: null });
      expect(emits).toEqual([]);
    }
  });

  it('a failed check is a notice too; cancelling while it asks sends nothing', async () => {
    const failing = inSystem({
      actors: {
        checkMedia: fromPromise(async () => {
          throw new Error('boom');
        }) as never,
      },
    });
    failing.call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: false });
    await vi.waitFor(() => expect(failing.snap().value).toBe('idle'));
    expect(failing.snap().context.notice).toBe(CALL_NOTICES.mediaFailed);
    expect(failing.emits).toEqual([]);

    const asking = inSystem({ actors: { checkMedia: hang() as never } });
    asking.call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: false });
    asking.call.send({ type: 'call.end' });
    expect(asking.snap().value).toBe('idle');
    expect(asking.emits).toEqual([]);
  });

  it('the callee without a microphone declines instead of answering, and reads why', async () => {
    const check = media({ kind: 'insecure', secureUrl: null });
    const { call, snap, emits, sounds } = inSystem({ actors: { checkMedia: check.actor } });
    call.send({ type: 'call.startIncoming', conversationId: 'c2', from: caller, video: true });
    call.send({ type: 'call.accept', video: false });
    expect(sounds).toEqual(['start ring', 'stop ring']);
    await vi.waitFor(() => expect(snap().value).toBe('idle'));
    expect(check.asked).toEqual([{ video: false }]);
    expect(emits).toEqual([{ name: 'call:decline', payload: { conversationId: 'c2' } }]);
    expect(snap().context).toMatchObject({ insecure: { secureUrl: null }, incoming: null });
  });

  it('a conference failure reads in Russian: media errors by name, the library’s English as a connection failure', () => {
    expect(failureNotice({ name: 'NotAllowedError', message: 'Permission denied' })).toBe(CALL_NOTICES.mediaDenied);
    expect(failureNotice({ name: 'NotFoundError', message: 'Requested device not found' })).toBe(
      CALL_NOTICES.mediaMissing,
    );
    expect(
      failureNotice({ name: 'TypeError', message: "Cannot read properties of undefined (reading 'getUserMedia')" }),
    ).toBe(CALL_NOTICES.mediaUnsupported);
    expect(failureNotice({ message: 'no livekit url provided' })).toBe(CALL_NOTICES.tokenFailed);
    expect(failureNotice({ message: 'Нет ключа звонка' })).toBe('Нет ключа звонка');
  });

  it('a failed conference ends the call with the Russian notice, never the raw error', async () => {
    const { call, snap } = inSystem();
    call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: true });
    await vi.waitFor(() => expect(snap().hasTag('open')).toBe(true));
    call.send({ type: 'call.failed', name: 'NotAllowedError', message: 'Permission denied' });
    expect(snap().value).toBe('idle');
    expect(snap().context.notice).toBe(CALL_NOTICES.mediaDenied);
  });
});

describe("call: a group's call is a room", () => {
  const requestsOf = () => {
    const requests: unknown[] = [];
    const invite = fromPromise(async ({ input }) => {
      requests.push(input);
      return { ok: true };
    });
    return { requests, invite };
  };

  it('starting it goes straight in with no ring-back; hanging up leaves it, the others stay', async () => {
    const { requests, invite } = requestsOf();
    const { call, emits, sounds, snap } = inSystem({ actors: { invite: invite as never } });
    call.send({ type: 'call.startOutgoing', conversationId: 'g1', video: true, group: 'start' });
    await vi.waitFor(() => expect(snap().matches({ inCall: { signal: 'connected' } })).toBe(true));
    expect(requests).toEqual([{ name: 'groupCall:start', payload: { conversationId: 'g1', video: true } }]);
    expect(sounds).toEqual([]);
    call.send({ type: 'call.end' });
    expect(snap().value).toBe('idle');
    expect(emits).toEqual([{ name: 'groupCall:leave', payload: { conversationId: 'g1' } }]);
  });

  it('«Присоединиться» joins the call that is on; «Завершить для всех» ends it for everyone', async () => {
    const { requests, invite } = requestsOf();
    const { call, emits, snap } = inSystem({ actors: { invite: invite as never } });
    call.send({ type: 'call.startOutgoing', conversationId: 'g1', video: false, group: 'join' });
    await vi.waitFor(() => expect(snap().matches({ inCall: { signal: 'connected' } })).toBe(true));
    expect(requests).toEqual([{ name: 'groupCall:join', payload: { conversationId: 'g1', video: false } }]);
    call.send({ type: 'call.end', all: true });
    expect(snap().value).toBe('idle');
    expect(emits).toEqual([{ name: 'groupCall:end', payload: { conversationId: 'g1' } }]);
  });

  it('back online during a group call, this socket takes my place again; a direct call sends nothing', async () => {
    const { invite } = requestsOf();
    const { call, emits, snap } = inSystem({ actors: { invite: invite as never } });
    call.send({ type: 'call.startOutgoing', conversationId: 'g1', video: false, group: 'join' });
    await vi.waitFor(() => expect(snap().matches({ inCall: { signal: 'connected' } })).toBe(true));
    call.send({ type: 'call.reconnected' });
    expect(emits).toEqual([{ name: 'groupCall:join', payload: { conversationId: 'g1' } }]);
    call.send({ type: 'call.end' });
    call.send({ type: 'call.startOutgoing', conversationId: 'c1', video: false });
    await vi.waitFor(() => expect(snap().hasTag('open')).toBe(true));
    call.send({ type: 'call.reconnected' });
    expect(emits).toEqual([
      { name: 'groupCall:join', payload: { conversationId: 'g1' } },
      { name: 'groupCall:leave', payload: { conversationId: 'g1' } },
    ]);
  });

  it('«Шумоподавление» switched off holds for the next call, the running state does not, and sign-out forgets both', async () => {
    const { call, snap } = inSystem();
    expect(snap().context).toMatchObject({ noiseSuppression: true, noiseRunning: false });
    call.send({ type: 'call.startOutgoing', conversationId: 'g1', video: false, group: 'join' });
    await vi.waitFor(() => expect(snap().hasTag('open')).toBe(true));
    call.send({ type: 'call.noiseRunning', running: true });
    call.send({ type: 'call.noiseSuppression', on: false });
    expect(snap().context).toMatchObject({ noiseSuppression: false, noiseRunning: true });
    call.send({ type: 'call.end' });
    expect(snap().context).toMatchObject({ noiseSuppression: false, noiseRunning: false });
    // Outside a call the switch is not there: nothing changes.
    call.send({ type: 'call.noiseSuppression', on: true });
    expect(snap().context.noiseSuppression).toBe(false);
    call.send({ type: 'call.signedOut' });
    expect(snap().context.noiseSuppression).toBe(true);
    // Signed out in a call: the same.
    call.send({ type: 'call.startOutgoing', conversationId: 'g1', video: false, group: 'join' });
    await vi.waitFor(() => expect(snap().hasTag('open')).toBe(true));
    call.send({ type: 'call.noiseSuppression', on: false });
    call.send({ type: 'call.signedOut' });
    expect(snap().value).toBe('idle');
    expect(snap().context).toMatchObject({ noiseSuppression: true, noiseRunning: false });
  });

  it('a join the server refuses (the call is over) ends with its reason', async () => {
    const { call, snap } = inSystem({
      actors: { invite: fromPromise(async () => ({ ok: false, message: 'Звонок уже закончился' })) as never },
    });
    call.send({ type: 'call.startOutgoing', conversationId: 'g1', video: false, group: 'join' });
    await vi.waitFor(() => expect(snap().value).toBe('idle'));
    expect(snap().context.notice).toBe('Звонок уже закончился');
  });

  it('a ring of a group: answering joins, declining stops only my ringing, a busy line declines only mine', async () => {
    const { call, emits, snap } = inSystem();
    call.send({ type: 'call.startIncoming', conversationId: 'g1', from: caller, video: false, group: true });
    expect(snap().context.incoming).toEqual({ conversationId: 'g1', from: caller, video: false, group: true });
    call.send({ type: 'call.decline' });
    expect(emits).toEqual([{ name: 'groupCall:decline', payload: { conversationId: 'g1' } }]);

    call.send({ type: 'call.startIncoming', conversationId: 'g1', from: caller, video: false, group: true });
    call.send({ type: 'call.accept', video: false });
    await vi.waitFor(() => expect(snap().matches({ inCall: { signal: 'connected' } })).toBe(true));
    expect(emits.at(-1)).toEqual({ name: 'groupCall:join', payload: { conversationId: 'g1', video: false } });
    call.send({ type: 'call.startIncoming', conversationId: 'g2', from: other, video: false, group: true });
    expect(emits.at(-1)).toEqual({ name: 'groupCall:decline', payload: { conversationId: 'g2' } });
    call.send({ type: 'call.end' });
    expect(emits.at(-1)).toEqual({ name: 'groupCall:leave', payload: { conversationId: 'g1' } });
  });

  it("the call's end, or my joining from another device, closes it here without a word to the server", async () => {
    // A realtime actor that hands the server's events on as the real one does (server.event to its listeners).
    const emits: unknown[] = [];
    const realtime = createMachine({
      types: {} as { events: { type: 'server'; name: string; payload: unknown } | { type: 'realtime.emit' } },
      on: {
        server: {
          actions: emit(
            ({ event }) =>
              ({
                type: 'server.event',
                name: (event as { name: string }).name,
                payload: (event as { payload: unknown }).payload,
              }) as never,
          ),
        },
        'realtime.emit': { actions: ({ event }) => emits.push(event) },
      },
    });
    const session = createMachine({ context: { session: { user: { id: me.id } } } });
    const { invite } = requestsOf();
    const callWithEvents = callMachine.provide({
      actors: {
        ring: quiet,
        ringback: quiet,
        fetchToken: fromPromise(async () => access) as never,
        invite: invite as never,
        checkMedia: fromPromise(async () => null) as never,
      },
    });
    const root = setup({ actors: { realtime, session, call: callWithEvents } }).createMachine({
      context: ({ spawn }) => ({
        realtime: spawn('realtime', { systemId: 'realtime' }),
        session: spawn('session', { systemId: 'session' }),
        call: spawn('call', { systemId: 'call' }),
      }),
    });
    const system = createActor(root).start().system;
    const call = system.get('call') as AnyActorRef;
    const server = system.get('realtime') as AnyActorRef;
    for (const [name, payload] of [
      ['groupCall:state', { conversationId: 'g1', call: null }],
      ['groupCall:moved', { conversationId: 'g1' }],
    ] as const) {
      call.send({ type: 'call.startOutgoing', conversationId: 'g1', video: false, group: 'join' });
      await vi.waitFor(() => expect(call.getSnapshot().matches({ inCall: { signal: 'connected' } })).toBe(true));
      // Another group's news changes nothing here.
      server.send({ type: 'server', name, payload: { ...payload, conversationId: 'g9' } });
      expect(call.getSnapshot().hasTag('open')).toBe(true);
      server.send({ type: 'server', name, payload });
      expect(call.getSnapshot().value).toBe('idle');
    }
    // Someone joined or left: the call goes on.
    call.send({ type: 'call.startOutgoing', conversationId: 'g1', video: false, group: 'join' });
    await vi.waitFor(() => expect(call.getSnapshot().matches({ inCall: { signal: 'connected' } })).toBe(true));
    server.send({
      type: 'server',
      name: 'groupCall:state',
      payload: {
        conversationId: 'g1',
        call: { conversationId: 'g1', startedAt: 'x', startedBy: 'u', video: false, participantIds: ['u'] },
      },
    });
    expect(call.getSnapshot().hasTag('open')).toBe(true);
    expect(emits).toEqual([]);
    // Removed by an owner or admin: out at once, told why, nothing sent (the server has me out already).
    server.send({ type: 'server', name: 'groupCall:removed', payload: { conversationId: 'g9' } });
    expect(call.getSnapshot().hasTag('open')).toBe(true);
    server.send({ type: 'server', name: 'groupCall:removed', payload: { conversationId: 'g1' } });
    expect(call.getSnapshot().value).toBe('idle');
    expect(call.getSnapshot().context.notice).toBe(CALL_NOTICES.removed);
    expect(emits).toEqual([]);
  });
});
