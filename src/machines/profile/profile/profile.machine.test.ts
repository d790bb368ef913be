import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import type { User } from '../../../contract/entities';
import { TIMINGS } from '../../../contract/limits';
import { profileMachine, SAVE_FAILED } from './profile.machine';

const me: User = {
  id: 'me',
  username: 'anna',
  displayName: 'Анна',
  avatarUrl: null,
  status: 'ONLINE',
  lastSeenAt: null,
  eblid: '0420',
  bio: null,
  email: null,
  role: 'member',
};
const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const silent = fromCallback(() => () => {}) as never;
const badRequest = (message: string) => {
  return new RequestFailure(400, message);
};
type Snap = { context: { me: User | null; saveError: string | null }; matches(v: unknown): boolean };

describeModel({
  name: 'profile',
  machine: profileMachine.provide({ actors: { session: silent, serverEvents: silent, fetchMe: hang, patchMe: hang } }),
  events: {
    'profile.signedIn': () => [{ type: 'profile.signedIn', userId: 'me' }],
    'profile.signedOut': (s) => ((s as Snap).context.me ? [{ type: 'profile.signedOut' }] : []),
    'profile.changed': () => [
      { type: 'profile.changed', userId: 'me' },
      { type: 'profile.changed', userId: 'someone-else' },
    ],
    'profile.save': (s) =>
      (s as Snap).context.saveError
        ? []
        : [{ type: 'profile.save', fields: { displayName: ' Анна К. ', status: 'DND', bio: '  ' } }],
    'xstate.done.actor.fetchMe': () => [{ type: 'xstate.done.actor.fetchMe', output: { user: me } }],
    'xstate.error.actor.fetchMe': () => [{ type: 'xstate.error.actor.fetchMe', error: new Error('offline') }],
    'xstate.done.actor.patchMe': () => [
      { type: 'xstate.done.actor.patchMe', output: { user: { ...me, displayName: 'Анна К.', status: 'DND' } } },
    ],
    'xstate.error.actor.patchMe': () => [
      { type: 'xstate.error.actor.patchMe', error: badRequest('Имя — не короче 2 символов') },
      { type: 'xstate.error.actor.patchMe', error: new Error('offline') },
    ],
  },
});

describe('profile with resolving actors', () => {
  it('saves trimmed fields (an empty bio as null), shows saved for the success time, and tells the session', async () => {
    vi.useFakeTimers();
    try {
      const sent: unknown[] = [];
      const heard: unknown[] = [];
      const profile = profileMachine.provide({
        actors: {
          session: fromCallback(({ sendBack }) => sendBack({ type: 'profile.signedIn', userId: 'me' })) as never,
          serverEvents: silent,
          fetchMe: fromPromise(async () => ({ user: me })) as never,
          patchMe: fromPromise(async ({ input }) => {
            sent.push(input);
            return { user: { ...me, displayName: 'Анна К.' } };
          }) as never,
        },
      });
      const session = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
      const root = createActor(
        createMachine({
          invoke: [
            { id: 'session', src: session, systemId: 'session' },
            { id: 'profile', src: profile, systemId: 'profile' },
          ],
        }),
      ).start();
      const actor = root.system.get('profile');
      // vi.waitFor would advance the fake clock: settle the promises without moving time.
      const settle = async () => {
        for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(0);
      };
      await settle();
      expect(actor.getSnapshot().context.me).toEqual(me);
      actor.send({ type: 'profile.save', fields: { displayName: ' Анна К. ', status: 'AWAY', bio: '  ' } });
      await settle();
      expect(actor.getSnapshot().hasTag('saved')).toBe(true);
      expect(sent).toEqual([{ displayName: 'Анна К.', status: 'AWAY', bio: null }]);
      expect(heard).toContainEqual({ type: 'session.userUpdated', user: { ...me, displayName: 'Анна К.' } });
      vi.advanceTimersByTime(TIMINGS.successMessageMs - 1);
      expect(actor.getSnapshot().hasTag('saved')).toBe(true);
      vi.advanceTimersByTime(1);
      expect(actor.getSnapshot().hasTag('saved')).toBe(false);
      root.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a refused save keeps the server message; an unexplained one the fallback', async () => {
    const actor = createActor(
      profileMachine.provide({
        actors: {
          session: fromCallback(({ sendBack }) => sendBack({ type: 'profile.signedIn', userId: 'me' })) as never,
          serverEvents: silent,
          fetchMe: fromPromise(async () => ({ user: me })) as never,
          patchMe: fromPromise(async ({ input }) => {
            throw (input as { displayName: string }).displayName === 'x'
              ? badRequest('Имя — не короче 2 символов')
              : new Error('x');
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'profile.save', fields: { displayName: 'x', status: 'ONLINE', bio: '' } });
    await waitFor(actor, (s) => s.context.saveError !== null);
    expect(actor.getSnapshot().context.saveError).toBe('Имя — не короче 2 символов');
    actor.send({ type: 'profile.save', fields: { displayName: 'yy', status: 'ONLINE', bio: '' } });
    await waitFor(actor, (s) => s.context.saveError === SAVE_FAILED);
  });
});
