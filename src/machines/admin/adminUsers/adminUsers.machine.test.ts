import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { type AdminUser, adminUsersMachine, USERS_FAILED, type UserAction } from './adminUsers.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const person = (id: string, over: Partial<AdminUser> = {}): AdminUser => ({
  id,
  username: `user${id}`,
  displayName: `Пользователь ${id}`,
  eblid: '1234',
  avatarUrl: null,
  role: 'member',
  state: 'active',
  createdAt: '2026-11-24T10:00:00.000Z',
  lastSeenAt: null,
  sessions: 1,
  secondFactor: false,
  ...over,
});
const refused = new RequestFailure(409, 'Нельзя отключить последнего администратора');
type Snap = { context: { nextCursor: string | null; resetLink: unknown } };

describeModel({
  name: 'adminUsers',
  machine: adminUsersMachine.provide({ actors: { loadUsers: hang, act: hang, makeResetLink: hang, copyLink: hang } }),
  contextKey: (c) =>
    `${c.query}|${c.users.length}|${c.nextCursor ?? ''}|${c.pending?.action ?? ''}|${c.resetLink ? 'l' : ''}|${c.error ? 'e' : ''}`,
  events: {
    'users.search': () => [{ type: 'users.search', query: 'анна' }],
    'users.act': () => [
      { type: 'users.act', userId: 'u1', action: 'deactivate' },
      { type: 'users.act', userId: 'u1', action: 'endSessions' },
      { type: 'users.act', userId: 'u1', action: 'resetSecondFactor' },
    ],
    'users.resetLink': () => [{ type: 'users.resetLink', userId: 'u1' }],
    'users.more': (s) => ((s as Snap).context.nextCursor ? [{ type: 'users.more' }] : []),
    'users.copyLink': (s) => ((s as Snap).context.resetLink ? [{ type: 'users.copyLink' }] : []),
    'xstate.done.actor.loadUsers': () => [
      { type: 'xstate.done.actor.loadUsers', output: { users: [person('u1')], nextCursor: 'c2' } },
    ],
    'xstate.error.actor.loadUsers': () => [{ type: 'xstate.error.actor.loadUsers', error: new Error('offline') }],
    'xstate.done.actor.loadMore': () => [
      { type: 'xstate.done.actor.loadMore', output: { users: [person('u2')], nextCursor: null } },
    ],
    'xstate.error.actor.loadMore': () => [{ type: 'xstate.error.actor.loadMore', error: new Error('offline') }],
    'xstate.done.actor.act': () => [{ type: 'xstate.done.actor.act', output: person('u1', { state: 'deactivated' }) }],
    'xstate.error.actor.act': () => [{ type: 'xstate.error.actor.act', error: refused }],
    'xstate.done.actor.makeResetLink': () => [
      {
        type: 'xstate.done.actor.makeResetLink',
        output: { path: '/reset/abcdefghijklmnopqrstuv', expiresAt: '2026-11-25T10:00:00.000Z' },
      },
    ],
    'xstate.error.actor.makeResetLink': () => [{ type: 'xstate.error.actor.makeResetLink', error: refused }],
    'xstate.done.actor.copyLink': () => [{ type: 'xstate.done.actor.copyLink', output: undefined }],
    'xstate.error.actor.copyLink': () => [{ type: 'xstate.error.actor.copyLink', error: new Error('denied') }],
  },
});

afterEach(() => vi.useRealTimers());

/** An actor over a fake server: pages of `all` two at a time, `q` matching names; actions recorded. */
function start(all: AdminUser[], fail?: (action: UserAction) => Error | null) {
  const calls: string[] = [];
  const copied: string[] = [];
  const actor = createActor(
    adminUsersMachine.provide({
      actors: {
        loadUsers: fromPromise(async ({ input }: { input: { q: string; cursor: string | null } }) => {
          calls.push(`load ${input.q}|${input.cursor ?? ''}`);
          const found = all.filter((u) => !input.q || u.displayName.toLowerCase().includes(input.q.toLowerCase()));
          const from = input.cursor ? Number(input.cursor) : 0;
          return { users: found.slice(from, from + 2), nextCursor: from + 2 < found.length ? String(from + 2) : null };
        }),
        act: fromPromise(async ({ input }: { input: { userId: string; action: UserAction } }) => {
          calls.push(`${input.action} ${input.userId}`);
          const error = fail?.(input.action);
          if (error) throw error;
          const u = all.find((x) => x.id === input.userId) as AdminUser;
          return {
            ...u,
            state: input.action === 'deactivate' ? 'deactivated' : 'active',
            role: input.action === 'promote' ? 'admin' : input.action === 'demote' ? 'member' : u.role,
          } as AdminUser;
        }),
        makeResetLink: fromPromise(async () => ({ path: '/reset/tok', expiresAt: '2026-11-25T10:00:00.000Z' })),
        copyLink: fromPromise(async ({ input }: { input: { path: string } }) => void copied.push(input.path)),
      } as never,
    }),
  ).start();
  return { actor, calls, copied };
}

describe('«Пользователи»', () => {
  it('lists, pages in the rest, and a search starts the list again', async () => {
    const { actor, calls } = start([person('1'), person('2'), person('3', { displayName: 'Анна' })]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.users.map((u) => u.id)).toEqual(['1', '2']);
    actor.send({ type: 'users.more' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.users.length === 3);
    expect(actor.getSnapshot().context.nextCursor).toBeNull();
    actor.send({ type: 'users.more' }); // nothing more: ignored
    actor.send({ type: 'users.search', query: ' анна ' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.users.length === 1);
    expect(calls).toEqual(['load |', 'load |2', 'load анна|']);
  });

  it('asks before deactivating or changing a role; «Отмена» does nothing; ending sign-ins goes at once', async () => {
    const { actor, calls } = start([person('1')]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'users.act', userId: '1', action: 'deactivate' });
    expect(actor.getSnapshot().hasTag('confirming')).toBe(true);
    actor.send({ type: 'users.cancel' });
    expect(actor.getSnapshot().context.pending).toBeNull();
    actor.send({ type: 'users.act', userId: '1', action: 'deactivate' });
    actor.send({ type: 'users.confirm' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.users[0].state).toBe('deactivated');
    actor.send({ type: 'users.act', userId: '1', action: 'endSessions' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'users.act', userId: '1', action: 'promote' });
    actor.send({ type: 'users.confirm' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.users[0].role).toBe('admin');
    expect(calls.slice(1)).toEqual(['deactivate 1', 'endSessions 1', 'promote 1']);
  });

  it('shows the server refusal in its words and keeps the list', async () => {
    const { actor } = start([person('1', { role: 'admin' })], () => refused);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'users.act', userId: '1', action: 'demote' });
    actor.send({ type: 'users.confirm' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Нельзя отключить последнего администратора');
    expect(actor.getSnapshot().context.users).toHaveLength(1);
  });

  it('makes a reset link, copies it («Скопировано» runs out) and closes it', async () => {
    vi.useFakeTimers();
    const { actor, copied } = start([person('1')]);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'users.resetLink', userId: '1' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.resetLink?.path).toBe('/reset/tok'));
    actor.send({ type: 'users.copyLink' });
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('copied')).toBe(true));
    expect(copied).toEqual(['/reset/tok']);
    vi.advanceTimersByTime(TIMINGS.successMessageMs);
    expect(actor.getSnapshot().hasTag('copied')).toBe(false);
    expect(actor.getSnapshot().context.resetLink).not.toBeNull();
    actor.send({ type: 'users.closeLink' });
    expect(actor.getSnapshot().context.resetLink).toBeNull();
  });

  it('a failed load says so', async () => {
    const actor = createActor(
      adminUsersMachine.provide({
        actors: {
          loadUsers: fromPromise(async () => {
            throw new Error('offline');
          }),
        } as never,
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBe(USERS_FAILED);
  });
});
