import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { hang, user } from '../../../../tests/fixtures/session';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import type { Session } from '../../../services/session/storage';
import { REGISTER_FAILED, SESSION_ENDED_ELSEWHERE, SIGN_IN_FAILED, sessionMachine } from './session.machine';

const stored: Session = { user, accessToken: 'a0', refreshToken: 'r0' };
// Promise actors never settle: the paths deliver their results.
const stubbed = sessionMachine.provide({
  actors: {
    login: hang as never,
    register: hang as never,
    refresh: hang as never,
    logout: hang as never,
    fetchMe: hang as never,
  },
});

const serverError = (message: string) => {
  return new RequestFailure(409, message);
};

describeModel({
  name: 'session',
  machine: stubbed,
  inputs: [{ stored: null }, { stored }],
  events: {
    'session.signIn': () => [{ type: 'session.signIn', username: 'anna', password: 'correct horse' }],
    // The own user with a new name, and someone else (ignored).
    'session.userUpdated': () => [
      { type: 'session.userUpdated', user: { ...user, displayName: 'Анна Н.' } },
      { type: 'session.userUpdated', user: { ...user, id: 'u2' } },
    ],
    'session.register': () => [
      { type: 'session.register', username: 'anna', displayName: 'Анна', password: 'correct horse' },
    ],
    'xstate.done.actor.login': () => [
      { type: 'xstate.done.actor.login', output: { user, accessToken: 'a1', refreshToken: 'r1' } },
    ],
    'xstate.error.actor.login': () => [
      { type: 'xstate.error.actor.login', error: new Error('401') },
      { type: 'xstate.error.actor.login', error: new RequestFailure(403, 'Аккаунт отключён администратором') },
    ],
    'session.ended': () => [
      { type: 'session.ended', message: 'Аккаунт отключён администратором' },
      { type: 'session.ended', message: SESSION_ENDED_ELSEWHERE },
    ],
    'xstate.done.actor.register': () => [{ type: 'xstate.done.actor.register', output: { user } }],
    'xstate.error.actor.register': () => [
      { type: 'xstate.error.actor.register', error: serverError('Этот никнейм уже занят') },
      { type: 'xstate.error.actor.register', error: new Error('network') },
    ],
    'xstate.done.actor.refresh': () => [
      { type: 'xstate.done.actor.refresh', output: { accessToken: 'a2', refreshToken: 'r2' } },
    ],
    'xstate.error.actor.refresh': () => [
      { type: 'xstate.error.actor.refresh', error: new Error('offline') },
      { type: 'xstate.error.actor.refresh', error: new RequestFailure(401, 'Сессия истекла, войдите снова') },
    ],
    'xstate.done.actor.me': () => [
      { type: 'xstate.done.actor.me', output: { user: { ...user, displayName: 'Анна К.' } } },
    ],
    'xstate.error.actor.me': () => [{ type: 'xstate.error.actor.me', error: new Error('offline') }],
    'xstate.done.actor.logout': () => [{ type: 'xstate.done.actor.logout', output: { ok: true } }],
    'xstate.error.actor.logout': () => [{ type: 'xstate.error.actor.logout', error: new Error('offline') }],
  },
});

// The same flows with the promise actors actually resolving, to check the wiring of inputs and outputs.
describe('session with resolving actors', () => {
  it('signs in with the form values and keeps both tokens', async () => {
    let seen: unknown;
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          login: fromPromise(async ({ input }) => {
            seen = input;
            return { user, accessToken: 'a1', refreshToken: 'r1' };
          }),
        },
      }),
      { input: { stored: null } },
    ).start();
    actor.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(seen).toEqual({ username: 'anna', password: 'pw' });
    expect(actor.getSnapshot().context.session).toEqual({ user, accessToken: 'a1', refreshToken: 'r1' });
  });

  it('shows one message for any sign-in failure, the server message for registration, else the fallback', async () => {
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          login: fromPromise(async () => Promise.reject(serverError('Неверный никнейм или пароль'))) as never,
          register: fromPromise(async () => Promise.reject(serverError('Этот никнейм уже занят'))) as never,
        },
      }),
      { input: {} },
    ).start();
    actor.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(actor, (s) => s.context.signInError !== null);
    expect(actor.getSnapshot().context.signInError).toBe(SIGN_IN_FAILED);
    actor.send({ type: 'session.register', username: 'anna', displayName: 'Анна', password: 'pw123456' });
    await waitFor(actor, (s) => s.context.registerError !== null);
    expect(actor.getSnapshot().context.registerError).toBe('Этот никнейм уже занят');
    expect(REGISTER_FAILED).toBe('Ошибка регистрации');
  });

  it("shows the server's message when the account itself is refused (deactivated), and sends the invite code", async () => {
    let registered: unknown;
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          login: fromPromise(async () =>
            Promise.reject(new RequestFailure(403, 'Аккаунт отключён администратором')),
          ) as never,
          register: fromPromise(async ({ input }) => {
            registered = input;
            return { user };
          }),
        },
      }),
      { input: {} },
    ).start();
    actor.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(actor, (s) => s.context.signInError !== null);
    expect(actor.getSnapshot().context.signInError).toBe('Аккаунт отключён администратором');
    actor.send({
      type: 'session.register',
      username: 'anna',
      displayName: 'Анна',
      password: 'pw123456',
      inviteCode: 'abcDEF123',
    });
    await waitFor(actor, (s) => s.context.registeredUsername !== null);
    expect(registered).toEqual({
      username: 'anna',
      displayName: 'Анна',
      password: 'pw123456',
      inviteCode: 'abcDEF123',
    });
  });

  it("a deactivated account returns to the sign-in screen with the server's words", () => {
    const stored: Session = { user, accessToken: 'a1', refreshToken: 'r1' };
    const actor = createActor(sessionMachine.provide({ actors: { fetchMe: hang as never } }), {
      input: { stored },
    }).start();
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(true);
    actor.send({ type: 'session.ended', message: 'Аккаунт отключён администратором' });
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(actor.getSnapshot().context.signInError).toBe('Аккаунт отключён администратором');
  });

  it('a sign-in ended elsewhere returns to the sign-in screen saying so; a sign-out here says nothing', async () => {
    const actor = createActor(sessionMachine.provide({ actors: { fetchMe: hang as never } }), {
      input: { stored },
    }).start();
    actor.send({ type: 'session.ended', message: SESSION_ENDED_ELSEWHERE });
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(actor.getSnapshot().context.signInError).toBe(
      'Сеанс завершён на другом устройстве или администратором. Войдите снова.',
    );

    // Signing out here closes this tab's socket as well: the sign-in screen stays silent.
    const own = createActor(
      sessionMachine.provide({
        actors: {
          fetchMe: hang as never,
          logout: fromPromise<unknown, { refreshToken: string }>(async () => ({ ok: true })),
        },
      }),
      { input: { stored } },
    ).start();
    own.send({ type: 'session.signOut' });
    own.send({ type: 'session.ended', message: SESSION_ENDED_ELSEWHERE });
    await waitFor(own, (s) => s.matches('signedOut'));
    expect(own.getSnapshot().context.signInError).toBeNull();
  });

  it('a refresh the server refuses (401) says why on the sign-in screen; no answer says nothing', async () => {
    let refusal: Error = new RequestFailure(401, 'Сессия истекла, войдите снова');
    const start = () =>
      createActor(
        sessionMachine.provide({
          actors: {
            fetchMe: hang as never,
            refresh: fromPromise<{ accessToken: string; refreshToken: string }, { refreshToken: string }>(async () => {
              throw refusal;
            }),
          },
        }),
        { input: { stored } },
      ).start();
    const refused = start();
    refused.send({ type: 'session.refresh' });
    await waitFor(refused, (s) => s.matches('signedOut'));
    expect(refused.getSnapshot().context.signInError).toBe('Сессия истекла, войдите снова');
    refusal = new RequestFailure(null, null);
    const offline = start();
    offline.send({ type: 'session.refresh' });
    await waitFor(offline, (s) => s.matches('signedOut'));
    expect(offline.getSnapshot().context.signInError).toBeNull();
  });

  it('replaces both tokens on refresh, keeps the user, and clears the session when refresh fails', async () => {
    let calls = 0;
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          refresh: fromPromise(async ({ input }) => {
            calls++;
            if (input.refreshToken === 'r9') throw new Error('revoked');
            return { accessToken: 'a9', refreshToken: 'r9' };
          }),
        },
      }),
      { input: { stored } },
    ).start();
    actor.send({ type: 'session.refresh' });
    actor.send({ type: 'session.refresh' }); // a second request while refreshing shares the first refresh
    await waitFor(actor, (s) => s.matches({ signedIn: 'active' }));
    expect(calls).toBe(1);
    expect(actor.getSnapshot().context.session).toEqual({ user, accessToken: 'a9', refreshToken: 'r9' });
    actor.send({ type: 'session.refresh' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(actor.getSnapshot().context.session).toBeNull();
  });

  it('answers every refresh request: the refresh it starts, one already in flight, or null without a session', async () => {
    let finish!: (t: { accessToken: string; refreshToken: string }) => void;
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          refresh: fromPromise(() => new Promise<{ accessToken: string; refreshToken: string }>((r) => (finish = r))),
          fetchMe: hang as never,
          logout: fromPromise<unknown, { refreshToken: string }>(async () => ({ ok: true })),
        },
      }),
      { input: { stored } },
    ).start();
    const answers: (string | null)[] = [];
    actor.on('session.refreshed', (e) => answers.push(e.accessToken));
    actor.send({ type: 'session.refresh' });
    actor.send({ type: 'session.refresh' }); // mid-refresh: answered by the refresh in flight
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(true);
    finish({ accessToken: 'a5', refreshToken: 'r5' });
    await waitFor(actor, (s) => s.matches({ signedIn: 'active' }));
    expect(answers).toEqual(['a5']); // one emit answers both requesters
    actor.send({ type: 'session.signOut' });
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(false); // signing out counts as signed out at once
    actor.send({ type: 'session.refresh' }); // while signing out
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'session.refresh' }); // signed out
    expect(answers).toEqual(['a5', null, null]);
    // A sign-out on purpose: the next sign-in should not return to this user's page.
    expect(actor.getSnapshot().context.rememberOrigin).toBe(false);
  });

  it('emits session.registered so the view can go back to sign-in', async () => {
    const actor = createActor(
      sessionMachine.provide({ actors: { register: fromPromise(async () => ({ user })) as never } }),
      { input: {} },
    ).start();
    const got: string[] = [];
    actor.on('session.registered', (e) => got.push(e.username));
    actor.send({ type: 'session.register', username: 'anna', displayName: 'Анна', password: 'pw123456' });
    await waitFor(actor, (s) => s.context.registeredUsername === 'anna');
    expect(got).toEqual(['anna']);
  });
});
