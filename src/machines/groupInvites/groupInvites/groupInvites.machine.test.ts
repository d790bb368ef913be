import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import {
  groupInvitesMachine,
  INVITE_ACTION_FAILED,
  INVITES_FAILED,
  type Invite,
  inviteLink,
} from './groupInvites.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const invite = (code: string): Invite => ({
  code,
  createdAt: '2026-11-24T10:00:00.000Z',
  expiresAt: null,
  maxUses: null,
  uses: 0,
});
const refused = new RequestFailure(403, 'Это могут только владелец и администраторы группы');

describeModel({
  name: 'groupInvites',
  machine: groupInvitesMachine.provide({
    actors: { loadInvites: hang, createInvite: hang, revokeInvite: hang, copyInvite: hang },
  }),
  inputs: [{ conversationId: 'g1' }],
  contextKey: (c) => `${c.invites.length}|${c.code ?? ''}|${c.error ? 'e' : ''}`,
  events: {
    'invites.create': () => [{ type: 'invites.create' }],
    'invites.revoke': () => [{ type: 'invites.revoke', code: 'k1' }],
    'invites.copy': () => [{ type: 'invites.copy', code: 'k1' }],
    'invites.reload': () => [{ type: 'invites.reload' }],
    'xstate.done.actor.loadInvites': () => [{ type: 'xstate.done.actor.loadInvites', output: [invite('k1')] }],
    'xstate.error.actor.loadInvites': () => [{ type: 'xstate.error.actor.loadInvites', error: refused }],
    'xstate.done.actor.createInvite': () => [{ type: 'xstate.done.actor.createInvite', output: {} }],
    'xstate.error.actor.createInvite': () => [{ type: 'xstate.error.actor.createInvite', error: refused }],
    'xstate.done.actor.revokeInvite': () => [{ type: 'xstate.done.actor.revokeInvite', output: {} }],
    'xstate.error.actor.revokeInvite': () => [{ type: 'xstate.error.actor.revokeInvite', error: refused }],
    'xstate.done.actor.copyInvite': () => [{ type: 'xstate.done.actor.copyInvite', output: undefined }],
    'xstate.error.actor.copyInvite': () => [{ type: 'xstate.error.actor.copyInvite', error: new Error('denied') }],
  },
});

afterEach(() => vi.useRealTimers());

describe('groupInvites with a server', () => {
  it('lists, creates, copies (the notice runs out) and revokes, reading the list again after each change', async () => {
    vi.useFakeTimers();
    let server = [invite('k1')];
    const copied: string[] = [];
    const created: unknown[] = [];
    const actor = createActor(
      groupInvitesMachine.provide({
        actors: {
          loadInvites: fromPromise(async () => server) as never,
          createInvite: fromPromise(async ({ input }: { input: unknown }) => {
            created.push(input);
            server = [invite('k2'), ...server];
            return {};
          }) as never,
          revokeInvite: fromPromise(async ({ input }: { input: { code: string } }) => {
            server = server.filter((i) => i.code !== input.code);
            return {};
          }) as never,
          copyInvite: fromPromise(async ({ input }: { input: { code: string } }) => {
            copied.push(input.code);
          }) as never,
        },
      }),
      { input: { conversationId: 'g1' } },
    ).start();
    const settle = () => vi.advanceTimersByTimeAsync(0);
    await settle();
    expect(actor.getSnapshot().context.invites.map((i) => i.code)).toEqual(['k1']);
    actor.send({ type: 'invites.create', expiresAt: '2026-12-01T00:00:00.000Z', maxUses: 10 });
    await settle();
    expect(actor.getSnapshot().context.invites.map((i) => i.code)).toEqual(['k2', 'k1']);
    expect(created).toEqual([{ conversationId: 'g1', expiresAt: '2026-12-01T00:00:00.000Z', maxUses: 10 }]);
    actor.send({ type: 'invites.copy', code: 'k2' });
    await settle();
    expect(actor.getSnapshot().hasTag('copied')).toBe(true);
    expect(copied).toEqual(['k2']);
    await vi.advanceTimersByTimeAsync(TIMINGS.successMessageMs);
    expect(actor.getSnapshot().hasTag('copied')).toBe(false);
    actor.send({ type: 'invites.revoke', code: 'k1' });
    await settle();
    expect(actor.getSnapshot().context.invites.map((i) => i.code)).toEqual(['k2']);
    expect(inviteLink('https://beseda.example', 'k2')).toBe('https://beseda.example/join/k2');
  });

  it('says why the list or a change failed', async () => {
    const actor = createActor(
      groupInvitesMachine.provide({
        actors: {
          loadInvites: fromPromise(async () => {
            throw new Error('offline');
          }) as never,
          createInvite: fromPromise(async () => {
            throw new Error('offline');
          }) as never,
        },
      }),
      { input: { conversationId: 'g1' } },
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe(INVITES_FAILED));
    actor.send({ type: 'invites.create' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe(INVITE_ACTION_FAILED));
  });
});
