import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { hang, user } from '../../../tests/fixtures/session';
import { connectivityMachine } from '../connectivity/connectivity.machine';
import { realtimeMachine } from '../realtime/realtime.machine';
import { sessionMachine } from '../session/session.machine';
import { appMachine } from './app.machine';

// The app's children with their side effects stubbed (spawned children are replaced, not traversed).
function stubbedApp(opened: string[]) {
  return appMachine.provide({
    actors: {
      realtime: realtimeMachine.provide({
        actors: { socket: fromCallback<never, { token: string }>(({ input }) => void opened.push(input.token)) as never },
      }),
      session: sessionMachine.provide({
        actors: {
          logout: fromPromise(async () => ({ ok: true })) as never,
          login: fromPromise(async () => ({ user, accessToken: 'a1', refreshToken: 'r1' })) as never,
          fetchMe: hang as never,
        },
      }),
      connectivity: connectivityMachine.provide({ actors: { ping: hang as never } }),
    },
  });
}

describe('app (root actor)', () => {
  it('spawns session, realtime and connectivity under their systemIds', () => {
    const app = createActor(stubbedApp([]), { input: {} }).start();
    for (const id of ['session', 'realtime', 'connectivity']) expect(app.system.get(id)).toBeDefined();
    expect(app.getSnapshot().context.session).toBe(app.system.get('session'));
  });

  it('a restored session connects the realtime actor at once; signing out stops it', async () => {
    const opened: string[] = [];
    const app = createActor(stubbedApp(opened), {
      input: { stored: { user, accessToken: 'a0', refreshToken: 'r0' } },
    }).start();
    const { session, realtime } = app.getSnapshot().context;
    expect(realtime.getSnapshot().matches('online')).toBe(true);
    expect(opened).toEqual(['a0']);
    session.send({ type: 'session.signOut' });
    await waitFor(session, (s) => s.matches('signedOut'));
    expect(realtime.getSnapshot().matches('idle')).toBe(true);
  });

  it('signed out, realtime stays idle until sign-in sets the token', async () => {
    const opened: string[] = [];
    const app = createActor(stubbedApp(opened), { input: {} }).start();
    const { session, realtime } = app.getSnapshot().context;
    expect(realtime.getSnapshot().value).toBe('idle');
    session.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(session, (s) => s.matches('signedIn'));
    expect(opened).toEqual(['a1']);
  });
});
