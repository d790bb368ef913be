// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { loadSession, saveSession } from './storage';

const session = {
  user: {
    id: 'u1',
    username: 'anna',
    displayName: 'Анна',
    avatarUrl: null,
    status: 'ONLINE' as const,
    lastSeenAt: null,
    eblid: '0420',
    bio: null,
    email: null,
    role: 'member' as const,
  },
  accessToken: 'a',
  refreshToken: 'r',
};
afterEach(() => localStorage.clear());

describe('session storage', () => {
  it('round-trips the session and clears it', () => {
    expect(loadSession()).toBeNull();
    saveSession(session);
    expect(loadSession()).toEqual(session);
    saveSession(null);
    expect(loadSession()).toBeNull();
  });

  it('ignores what it cannot read', () => {
    localStorage.setItem('beseda.session', '{not json');
    expect(loadSession()).toBeNull();
    localStorage.setItem('beseda.session', JSON.stringify({ accessToken: 'a' }));
    expect(loadSession()).toBeNull();
  });

  it('drops a corrupted session (any field of it), keeps a good one as stored', () => {
    const corrupted = [
      { ...session, refreshToken: 7 },
      { ...session, user: null },
      { ...session, user: { ...session.user, status: 'SLEEPING' } },
      { ...session, user: { ...session.user, id: undefined } },
      { ...session, user: { ...session.user, email: undefined } }, // an older format without the field
    ];
    for (const bad of corrupted) {
      localStorage.setItem('beseda.session', JSON.stringify(bad));
      expect(loadSession()).toBeNull();
    }
    localStorage.setItem('beseda.session', JSON.stringify(session));
    expect(loadSession()).toEqual(session);
  });
});
