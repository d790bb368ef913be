// @vitest-environment jsdom
// The root actor through the composition root, with the network services replaced: the session hands its
// access token to the realtime actor (a restored session connects at once, once the session-long actors whose code
// loads later run; a signed-out one only after sign-in), and signing out stops the socket.
import { waitFor as until } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { appEffects } from '../../services/app/app-effects';
import { createRuntime } from './runtime';
import { never, quietSocket, storedSession, user } from '../../../tests/fixtures/session';

afterEach(() => localStorage.clear());

function runtime(stored: typeof storedSession | null) {
  const opened: string[] = [];
  const rt = createRuntime({
    effects: appEffects,
    stored,
    services: {
      api: { call: never },
      authApi: {
        login: async () => ({ user, accessToken: 'a1', refreshToken: 'r1' }),
        logout: async () => ({ ok: true as const }),
      },
      connectSocket: (token) => {
        opened.push(token);
        return quietSocket();
      },
      ping: never,
    },
  });
  const { session, realtime } = rt.app.getSnapshot().context;
  return { opened, session, realtime };
}

describe('app wiring: session → realtime', () => {
  it('a restored session connects the realtime actor at once; signing out stops it', async () => {
    const { opened, session, realtime } = runtime(storedSession);
    expect(realtime.getSnapshot().matches('online')).toBe(true);
    await until(() => expect(opened).toEqual(['a0']));
    session.send({ type: 'session.signOut' });
    await waitFor(session, (s) => s.matches('signedOut'));
    expect(realtime.getSnapshot().matches('idle')).toBe(true);
  });

  it('signed out, realtime stays idle until sign-in sets the token', async () => {
    const { opened, session, realtime } = runtime(null);
    expect(realtime.getSnapshot().value).toBe('idle');
    session.send({ type: 'session.signIn', username: 'anna', password: 'pw' });
    await waitFor(session, (s) => s.matches('signedIn'));
    await until(() => expect(opened).toEqual(['a1']));
  });
});
