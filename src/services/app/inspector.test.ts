// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { inspectorWanted, REDACTED, sanitize, startInspector } from './inspector';

describe('inspector', () => {
  it('is on only in development with ?inspect', () => {
    expect(inspectorWanted('?inspect', true)).toBe(true);
    expect(inspectorWanted('?x=1&inspect=1', true)).toBe(true);
    expect(inspectorWanted('?inspect', false)).toBe(false);
    expect(inspectorWanted('', true)).toBe(false);
  });

  it('replaces tokens, passwords and message bodies at any depth, keeping the rest', () => {
    const ctx = {
      session: { user: { id: 'u1', displayName: 'Анна' }, accessToken: 'eyJ.a', refreshToken: 'r.1' },
      events: [{ type: 'session.signIn', username: 'anna', password: 'secret' }],
      message: { id: 'm1', content: 'привет' },
      count: 2,
    };
    expect(sanitize(ctx)).toEqual({
      session: { user: { id: 'u1', displayName: 'Анна' }, accessToken: REDACTED, refreshToken: REDACTED },
      events: [{ type: 'session.signIn', username: 'anna', password: REDACTED }],
      message: REDACTED,
      count: 2,
    });
    expect(ctx.session.accessToken).toBe('eyJ.a'); // the original is untouched
  });

  it('replaces a guest’s secrets and call keys (guests in encrypted calls)', () => {
    const bytes = new Uint8Array(32);
    const ctx = {
      knock: { knockId: 'k1', secret: 's', keys: { linkSecret: bytes } },
      callKey: { epoch: 3, key: bytes },
      link: { code: 'c', fragment: '#k=abc' },
      state: { sealed: 'x' },
    };
    expect(sanitize(ctx)).toEqual({
      knock: { knockId: 'k1', secret: REDACTED, keys: REDACTED },
      callKey: REDACTED,
      link: { code: 'c', fragment: REDACTED },
      state: { sealed: REDACTED },
    });
  });
});

const created: Array<Record<string, (x: unknown) => unknown>> = [];
vi.mock('@statelyai/inspect', () => ({
  createBrowserInspector: (options: Record<string, (x: unknown) => unknown>) => {
    created.push(options);
    return { inspect: { next: () => {} } };
  },
}));

describe('startInspector', () => {
  it('loads the inspector only with ?inspect, and hands it the sanitisers', async () => {
    window.history.pushState({}, '', '/');
    expect(await startInspector()).toBeUndefined();
    expect(created).toHaveLength(0);
    window.history.pushState({}, '', '/?inspect');
    expect(await startInspector()).toBeDefined();
    expect(created).toHaveLength(1);
    expect(created[0].sanitizeContext({ session: { accessToken: 'x' } })).toEqual({
      session: { accessToken: REDACTED },
    });
    expect(created[0].sanitizeEvent({ type: 'session.signIn', password: 'p' })).toEqual({
      type: 'session.signIn',
      password: REDACTED,
    });
    window.history.pushState({}, '', '/');
  });
});
