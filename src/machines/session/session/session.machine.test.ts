import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { hang, user } from '../../../../tests/fixtures/session';
import { describeModel } from '../../../../tests/model/harness';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import { RequestFailure } from '../../../contract/failure';
import type { Session } from '../../../services/session/storage';
import { requestRefresh } from './session.protocol';
import {
  PASSKEY_STEP_FAILED,
  REFRESH_RETRY,
  REFRESH_RETRY_STEPS,
  REFRESH_TIMEOUT_MS,
  REGISTER_FAILED,
  refreshRetryDelay,
  SESSION_ENDED_ELSEWHERE,
  SIGN_IN_FAILED,
  selectReconnecting,
  sessionMachine,
} from './session.machine';

const stored: Session = { user, accessToken: 'a0', refreshToken: 'r0' };
/** No other tab: nothing else is ever stored. */
const oneTab = sessionMachine.provide({ actors: { storedElsewhere: fromCallback(() => {}) } });
// Promise actors never settle: the paths deliver their results. The retry's jitter is fixed at the middle of its
// step, so the replay knows when the delayed retry is due.
const stubbed = oneTab.provide({
  actors: {
    login: hang as never,
    loginSecondFactor: hang as never,
    passkeySecondFactor: hang as never,
    register: hang as never,
    refresh: hang as never,
    logout: hang as never,
    fetchMe: hang as never,
  },
  delays: { refreshRetry: ({ context }) => refreshRetryDelay(context.refreshFailures, 0.5) },
});

type Tokens = { accessToken: string; refreshToken: string };

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
    'session.adopt': () => [{ type: 'session.adopt', signIn: { user, accessToken: 'o1', refreshToken: 'p1' } }],
    'session.userUpdated': () => [
      { type: 'session.userUpdated', user: { ...user, displayName: 'Анна Н.' } },
      { type: 'session.userUpdated', user: { ...user, id: 'u2' } },
    ],
    'session.register': () => [
      { type: 'session.register', username: 'anna', displayName: 'Анна', password: 'correct horse' },
    ],
    // Signed in; signed in and told to set up the second factor; asked for the second factor.
    'xstate.done.actor.login': () => [
      { type: 'xstate.done.actor.login', output: { user, accessToken: 'a1', refreshToken: 'r1' } },
      {
        type: 'xstate.done.actor.login',
        output: { user, accessToken: 'a1', refreshToken: 'r1', twoFactorSetup: true },
      },
      { type: 'xstate.done.actor.login', output: { secondFactor: { challenge: 'c1', totp: true, passkey: false } } },
      { type: 'xstate.done.actor.login', output: { secondFactor: { challenge: 'c1', totp: false, passkey: true } } },
    ],
    'session.passkeySecondFactor': () => [{ type: 'session.passkeySecondFactor', remember: false }],
    'xstate.done.actor.passkeySecondFactor': () => [
      { type: 'xstate.done.actor.passkeySecondFactor', output: { user, accessToken: 'a5', refreshToken: 'r5' } },
    ],
    // The browser's prompt closed; a refused passkey; the challenge ran out.
    'xstate.error.actor.passkeySecondFactor': () => [
      { type: 'xstate.error.actor.passkeySecondFactor', error: new Error('NotAllowedError') },
      { type: 'xstate.error.actor.passkeySecondFactor', error: new RequestFailure(400, 'Ключ доступа не подошёл') },
      {
        type: 'xstate.error.actor.passkeySecondFactor',
        error: new RequestFailure(401, 'Вход истёк, введите пароль снова'),
      },
    ],
    'session.secondFactor': () => [{ type: 'session.secondFactor', code: '123456', remember: true }],
    'session.cancelSecondFactor': () => [{ type: 'session.cancelSecondFactor' }],
    'session.twoFactorEnabled': () => [{ type: 'session.twoFactorEnabled' }],
    'xstate.done.actor.loginSecondFactor': () => [
      { type: 'xstate.done.actor.loginSecondFactor', output: { user, accessToken: 'a4', refreshToken: 'r4' } },
    ],
    // A wrong code; the challenge ran out.
    'xstate.error.actor.loginSecondFactor': () => [
      { type: 'xstate.error.actor.loginSecondFactor', error: new RequestFailure(400, 'Неверный код') },
      {
        type: 'xstate.error.actor.loginSecondFactor',
        error: new RequestFailure(401, 'Вход истёк, введите пароль снова'),
      },
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
    // No connection, a server shutting down, and a refusal of the token.
    'xstate.error.actor.refresh': () => [
      { type: 'xstate.error.actor.refresh', error: new RequestFailure(null, null) },
      { type: 'xstate.error.actor.refresh', error: new RequestFailure(503, 'Service Unavailable') },
      { type: 'xstate.error.actor.refresh', error: new RequestFailure(401, 'Сессия истекла, войдите снова') },
    ],
    'xstate.done.actor.me': () => [
      { type: 'xstate.done.actor.me', output: { user: { ...user, displayName: 'Анна К.' } } },
    ],
    'xstate.error.actor.me': () => [{ type: 'xstate.error.actor.me', error: new Error('offline') }],
    'xstate.done.actor.logout': () => [{ type: 'xstate.done.actor.logout', output: { ok: true } }],
    'xstate.error.actor.logout': () => [{ type: 'xstate.error.actor.logout', error: new Error('offline') }],
    // Another tab rotated the tokens; another tab signed out; another user signed in there.
    'session.stored': () => [
      { type: 'session.stored', session: { user, accessToken: 'a3', refreshToken: 'r3' } },
      { type: 'session.stored', session: null },
      { type: 'session.stored', session: { user: { ...user, id: 'u2' }, accessToken: 'b1', refreshToken: 'q1' } },
    ],
  },
});

// The same flows with the promise actors actually resolving, to check the wiring of inputs and outputs.
describe('session with resolving actors', () => {
  it('asks for the second factor after a right password, then signs in with the code and the challenge', async () => {
    const sent: unknown[] = [];
    let refuse: RequestFailure | null = new RequestFailure(400, 'Неверный код');
    const actor = createActor(
      oneTab.provide({
        actors: {
          login: fromPromise<ResponseOf<'login'>, BodyOf<'login'>>(async () => ({
            secondFactor: { challenge: 'c1', totp: true, passkey: false },
          })),
          loginSecondFactor: fromPromise<ResponseOf<'loginSecondFactor'>, BodyOf<'loginSecondFactor'>>(
            async ({ input }) => {
              sent.push(input);
              if (refuse) throw refuse;
              return { user, accessToken: 'a1', refreshToken: 'r1', twoFactorSetup: false };
            },
          ),
        },
      }),
      { input: { stored: null } },
    ).start();
    actor.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'secondFactor' }));
    // No session yet, nothing announced.
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(false);
    actor.send({ type: 'session.secondFactor', code: '000000', remember: false });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.context.secondFactorError !== null);
    expect(actor.getSnapshot().context.secondFactorError).toBe('Неверный код');
    expect(actor.getSnapshot().matches({ signedOut: 'secondFactor' })).toBe(true);
    refuse = null;
    actor.send({ type: 'session.secondFactor', code: '123456', remember: true });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(sent).toEqual([
      { challenge: 'c1', code: '000000', remember: false },
      { challenge: 'c1', code: '123456', remember: true },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({
      session: { user, accessToken: 'a1', refreshToken: 'r1' },
      challenge: null,
      twoFactorSetup: false,
    });
  });

  it('an expired challenge goes back to the password with the server’s words; «Назад» too', async () => {
    const actor = createActor(
      oneTab.provide({
        actors: {
          login: fromPromise<ResponseOf<'login'>, BodyOf<'login'>>(async () => ({
            secondFactor: { challenge: 'c1', totp: true, passkey: false },
          })),
          loginSecondFactor: fromPromise<ResponseOf<'loginSecondFactor'>, BodyOf<'loginSecondFactor'>>(async () => {
            throw new RequestFailure(401, 'Вход истёк, введите пароль снова');
          }),
        },
      }),
      { input: { stored: null } },
    ).start();
    actor.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'secondFactor' }));
    actor.send({ type: 'session.secondFactor', code: '123456', remember: false });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(actor.getSnapshot().context).toMatchObject({
      challenge: null,
      signInError: 'Вход истёк, введите пароль снова',
    });
    actor.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'secondFactor' }));
    actor.send({ type: 'session.cancelSecondFactor' });
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.challenge).toBeNull();
  });

  it('the second step with a passkey: the ways offered, a closed prompt said, then signed in', async () => {
    const sent: unknown[] = [];
    let refuse: Error | null = new Error('NotAllowedError');
    const actor = createActor(
      oneTab.provide({
        actors: {
          login: fromPromise<ResponseOf<'login'>, BodyOf<'login'>>(async () => ({
            secondFactor: { challenge: 'c1', totp: false, passkey: true },
          })),
          passkeySecondFactor: fromPromise<ResponseOf<'passkeySignIn'>, { challenge: string; remember: boolean }>(
            async ({ input }) => {
              sent.push(input);
              if (refuse) throw refuse;
              return { user, accessToken: 'a6', refreshToken: 'r6' };
            },
          ),
          fetchMe: hang as never,
        },
      }),
      { input: { stored: null } },
    ).start();
    actor.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'secondFactor' }));
    expect(actor.getSnapshot().context.secondFactorMethods).toEqual({ totp: false, passkey: true });
    actor.send({ type: 'session.passkeySecondFactor', remember: false });
    await waitFor(actor, (s) => s.context.secondFactorError !== null);
    expect(actor.getSnapshot().context.secondFactorError).toBe(PASSKEY_STEP_FAILED);
    expect(actor.getSnapshot().matches({ signedOut: 'secondFactor' })).toBe(true);
    refuse = null;
    actor.send({ type: 'session.passkeySecondFactor', remember: true });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(sent).toEqual([
      { challenge: 'c1', remember: false },
      { challenge: 'c1', remember: true },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ session: { accessToken: 'a6' }, challenge: null });
  });

  it('a sign-in the server wants set up says so until the second factor is on', async () => {
    const actor = createActor(
      oneTab.provide({
        actors: {
          login: fromPromise<ResponseOf<'login'>, BodyOf<'login'>>(async () => ({
            user,
            accessToken: 'a1',
            refreshToken: 'r1',
            twoFactorSetup: true,
          })),
          fetchMe: hang as never,
        },
      }),
      { input: { stored: null } },
    ).start();
    actor.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(actor.getSnapshot().context.twoFactorSetup).toBe(true);
    actor.send({ type: 'session.twoFactorEnabled' });
    expect(actor.getSnapshot().context.twoFactorSetup).toBe(false);
  });

  it('signs in with the form values and keeps both tokens', async () => {
    let seen: unknown;
    const actor = createActor(
      oneTab.provide({
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
      oneTab.provide({
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
      oneTab.provide({
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
    const actor = createActor(oneTab.provide({ actors: { fetchMe: hang as never } }), {
      input: { stored },
    }).start();
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(true);
    actor.send({ type: 'session.ended', message: 'Аккаунт отключён администратором' });
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(actor.getSnapshot().context.signInError).toBe('Аккаунт отключён администратором');
  });

  it('a sign-in ended elsewhere returns to the sign-in screen saying so; a sign-out here says nothing', async () => {
    const actor = createActor(oneTab.provide({ actors: { fetchMe: hang as never } }), {
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
      oneTab.provide({
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

  it('a refresh the server refuses (401) ends the session and says why on the sign-in screen', async () => {
    const actor = createActor(
      oneTab.provide({
        actors: {
          fetchMe: hang as never,
          refresh: fromPromise<Tokens, { userId: string; refreshToken: string }>(async () => {
            throw new RequestFailure(401, 'Сессия истекла, войдите снова');
          }),
        },
      }),
      { input: { stored } },
    ).start();
    const answer = requestRefresh(actor);
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(await answer).toBeNull();
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(actor.getSnapshot().context.signInError).toBe('Сессия истекла, войдите снова');
  });

  it('replaces both tokens on refresh, keeps the user, and clears the session when the refresh is refused', async () => {
    let calls = 0;
    const actor = createActor(
      oneTab.provide({
        actors: {
          refresh: fromPromise(async ({ input }) => {
            calls++;
            if (input.refreshToken === 'r9') throw new RequestFailure(401, 'Сессия истекла, войдите снова');
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
      oneTab.provide({
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
    const actor = createActor(oneTab.provide({ actors: { register: fromPromise(async () => ({ user })) as never } }), {
      input: {},
    }).start();
    const got: string[] = [];
    actor.on('session.registered', (e) => got.push(e.username));
    actor.send({ type: 'session.register', username: 'anna', displayName: 'Анна', password: 'pw123456' });
    await waitFor(actor, (s) => s.context.registeredUsername === 'anna');
    expect(got).toEqual(['anna']);
  });
});

// A restart, a network that drops out: the refresh gets no answer. The session and all that is stored stay; the
// refresh is tried again on the named delay (1 s doubling to 5 s, jittered), and the requesters wait for it.
describe('a refresh nobody answers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A session whose refresh calls answer in turn from `outcomes`: tokens, a failure, or 'hang' (no answer ever). */
  function scripted(outcomes: (Tokens | RequestFailure | 'hang')[]) {
    const calls: { refreshToken: string; signal: AbortSignal }[] = [];
    const actor = createActor(
      oneTab.provide({
        actors: {
          fetchMe: hang as never,
          logout: fromPromise<unknown, { refreshToken: string }>(async () => ({ ok: true })),
          refresh: fromPromise<Tokens, { userId: string; refreshToken: string }>(({ input, signal }) => {
            calls.push({ refreshToken: input.refreshToken, signal });
            const next = outcomes.shift();
            if (next === undefined) throw new Error('no outcome left');
            if (next === 'hang') return new Promise<never>(() => {});
            return next instanceof RequestFailure ? Promise.reject(next) : Promise.resolve(next);
          }),
        },
      }),
      { input: { stored } },
    ).start();
    return { actor, calls };
  }

  /** The pause after the n-th unanswered refresh in a row lies in [step/2, step], and ends in one retry. */
  async function expectRetryWithin(calls: unknown[], failures: number) {
    const step = Math.min(REFRESH_RETRY.maxMs, REFRESH_RETRY.firstMs * 2 ** (failures - 1));
    const before = calls.length;
    const started = Date.now();
    await vi.advanceTimersToNextTimerAsync();
    const waited = Date.now() - started;
    expect(waited, 'the pause').toBeGreaterThanOrEqual(step / 2);
    expect(waited, 'the pause').toBeLessThanOrEqual(step);
    expect(calls.length, 'one retry').toBe(before + 1);
    await vi.advanceTimersByTimeAsync(0);
  }

  it('503, then no connection: stays signed in, retries on the delay, and answers every requester once it succeeds', async () => {
    vi.useFakeTimers();
    const { actor, calls } = scripted([
      new RequestFailure(503, 'Service Unavailable'),
      new RequestFailure(null, null),
      { accessToken: 'a7', refreshToken: 'r7' },
    ]);
    const answers = [requestRefresh(actor), requestRefresh(actor)];
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    const during = actor.getSnapshot();
    expect(during.matches({ signedIn: 'retrying' })).toBe(true);
    expect(during.hasTag('signedIn')).toBe(true);
    expect(during.context.session).toEqual(stored);
    expect(during.context.signInError).toBeNull();
    expect(selectReconnecting(during)).toBe(true);

    await expectRetryWithin(calls, 1);
    expect(actor.getSnapshot().context.refreshFailures).toBe(2);
    expect(actor.getSnapshot().context.session).toEqual(stored);
    await expectRetryWithin(calls, 2);

    // The same refresh token each time: it was never rotated.
    expect(calls.map((c) => c.refreshToken)).toEqual(['r0', 'r0', 'r0']);
    expect(await Promise.all(answers)).toEqual(['a7', 'a7']);
    const after = actor.getSnapshot();
    expect(after.matches({ signedIn: 'active' })).toBe(true);
    expect(after.context.session).toEqual({ user, accessToken: 'a7', refreshToken: 'r7' });
    expect(selectReconnecting(after)).toBe(false);
    actor.stop();
  });

  it('a refresh with no answer at all times out, is abandoned and tried again', async () => {
    vi.useFakeTimers();
    const { actor, calls } = scripted(['hang', { accessToken: 'a8', refreshToken: 'r8' }]);
    const answer = requestRefresh(actor);
    await vi.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS - 1);
    expect(actor.getSnapshot().matches({ signedIn: 'refreshing' })).toBe(true);
    expect(calls[0].signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches({ signedIn: 'retrying' })).toBe(true);
    expect(calls[0].signal.aborted).toBe(true); // the request is cancelled, not left running
    expect(actor.getSnapshot().context.session).toEqual(stored);
    await expectRetryWithin(calls, 1);
    expect(await answer).toBe('a8');
    expect(actor.getSnapshot().context.session?.refreshToken).toBe('r8');
    actor.stop();
  });

  it('a request while waiting (the server answered someone) tries at once; the pause grows up to 5 s', async () => {
    vi.useFakeTimers();
    const down = () => new RequestFailure(502, null);
    const { actor, calls } = scripted([
      ...Array.from({ length: REFRESH_RETRY_STEPS + 1 }, down),
      { accessToken: 'a6', refreshToken: 'r6' },
    ]);
    const first = requestRefresh(actor);
    await vi.advanceTimersByTimeAsync(0);
    for (let failures = 1; failures <= REFRESH_RETRY_STEPS; failures++) await expectRetryWithin(calls, failures);
    // Past the longest step the pause stays at it.
    expect(actor.getSnapshot().context.refreshFailures).toBe(REFRESH_RETRY_STEPS);
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY.maxMs / 2 - 1);
    const second = requestRefresh(actor);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(REFRESH_RETRY_STEPS + 2);
    expect(await Promise.all([first, second])).toEqual(['a6', 'a6']);
    actor.stop();
  });

  it('only 401 is a refusal: other answers and none keep the session', () => {
    for (const status of [null, 400, 403, 404, 408, 429, 500, 502, 503, 504, 507]) {
      const actor = createActor(stubbed, { input: { stored } }).start();
      actor.send({ type: 'session.refresh' });
      actor.send({ type: 'xstate.error.actor.refresh', error: new RequestFailure(status, null) } as never);
      expect(actor.getSnapshot().matches({ signedIn: 'retrying' }), `status ${status}`).toBe(true);
      expect(actor.getSnapshot().context.session).toEqual(stored);
      actor.stop();
    }
    const refused = createActor(stubbed, { input: { stored } }).start();
    refused.send({ type: 'session.refresh' });
    refused.send({ type: 'xstate.error.actor.refresh', error: new RequestFailure(401, null) } as never);
    expect(refused.getSnapshot().matches('signedOut')).toBe(true);
    expect(refused.getSnapshot().context.session).toBeNull();
  });

  it('a refusal after retries, a sign-out or a sign-in ended elsewhere still ends it, answering the requesters', async () => {
    vi.useFakeTimers();
    const refused = scripted([
      new RequestFailure(null, null),
      new RequestFailure(401, 'Сессия истекла, войдите снова'),
    ]);
    const waiting = requestRefresh(refused.actor);
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY.firstMs);
    expect(await waiting).toBeNull();
    expect(refused.actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(refused.actor.getSnapshot().context).toMatchObject({
      session: null,
      refreshFailures: 0,
      signInError: 'Сессия истекла, войдите снова',
    });

    const out = scripted([new RequestFailure(null, null)]);
    const outWaiting = requestRefresh(out.actor);
    await vi.advanceTimersByTimeAsync(0);
    out.actor.send({ type: 'session.signOut' });
    expect(await outWaiting).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    expect(out.actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(out.actor.getSnapshot().context.session).toBeNull();

    const ended = scripted([new RequestFailure(null, null)]);
    const endedWaiting = requestRefresh(ended.actor);
    await vi.advanceTimersByTimeAsync(0);
    ended.actor.send({ type: 'session.ended', message: SESSION_ENDED_ELSEWHERE });
    expect(await endedWaiting).toBeNull();
    expect(ended.actor.getSnapshot().context.session).toBeNull();
  });

  it("another tab's rotation (the tabs share the sign-in) answers the waiting requesters; nothing else is taken", async () => {
    vi.useFakeTimers();
    const { actor, calls } = scripted([new RequestFailure(503, 'Service Unavailable')]);
    const tokens: (string | null)[] = [];
    actor.on('session.token', (e) => tokens.push(e.accessToken));
    const answer = requestRefresh(actor);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ signedIn: 'retrying' })).toBe(true);
    // Not this sign-in's rotation: another tab signed out, another user signed in there, the same tokens again.
    for (const other of [null, { ...stored, user: { ...user, id: 'u2' }, refreshToken: 'q1' }, stored]) {
      actor.send({ type: 'session.stored', session: other });
      expect(actor.getSnapshot().matches({ signedIn: 'retrying' })).toBe(true);
    }
    actor.send({ type: 'session.stored', session: { user, accessToken: 'a4', refreshToken: 'r4' } });
    expect(await answer).toBe('a4');
    const after = actor.getSnapshot();
    expect(after.matches({ signedIn: 'active' })).toBe(true);
    expect(after.context.session).toEqual({ user, accessToken: 'a4', refreshToken: 'r4' });
    expect(selectReconnecting(after)).toBe(false);
    expect(tokens).toEqual(['a4']); // the socket reconnects with it
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY.maxMs);
    expect(calls).toHaveLength(1); // no retry of the old token, which would end the sign-in
    actor.stop();
  });

  it('pauses 1 s doubling to 5 s, each between half and all of its step', () => {
    const steps = [1_000, 2_000, 4_000, 5_000, 5_000, 5_000, 5_000, 5_000];
    steps.forEach((step, i) => {
      expect(refreshRetryDelay(i + 1, 0)).toBe(step / 2);
      expect(refreshRetryDelay(i + 1, 0.999_999)).toBe(step);
    });
    expect(REFRESH_RETRY_STEPS).toBe(4);
  });
});
