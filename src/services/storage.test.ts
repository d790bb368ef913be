import { afterEach, describe, expect, it } from 'vitest';
import { loadSession, saveSession } from './storage';

const session = {
  user: { id: 'u1', username: 'anna', displayName: 'Анна', avatarUrl: null, status: 'ONLINE' as const, lastSeenAt: null, eblid: '0420', bio: null, email: null },
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
});
