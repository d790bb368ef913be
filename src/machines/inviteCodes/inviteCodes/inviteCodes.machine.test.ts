import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import {
  INVITE_CODE_FAILED,
  type InviteCodesState,
  INVITES_FAILED,
  inviteCodesMachine,
  type NewInvite,
  type RegistrationInvite,
  registrationInviteLink,
} from './inviteCodes.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const invite = (code: string, state: RegistrationInvite['state'] = 'active'): RegistrationInvite => ({
  code,
  note: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  expiresAt: null,
  maxUses: null,
  uses: 0,
  state,
  createdBy: null,
});
const refused = new RequestFailure(403, 'Приглашения создают только администраторы');
const draft: NewInvite = { expiresInHours: 24, maxUses: 5, note: 'Для друзей' };

describeModel({
  name: 'inviteCodes',
  machine: inviteCodesMachine.provide({
    actors: { load: hang, createInvite: hang, revokeInvite: hang, copyCode: hang },
  }),
  contextKey: (c) =>
    `${c.mode ?? ''}|${c.canCreate}|${c.invites.length}|${c.code ?? ''}|${c.draft ? 'd' : ''}|${c.error ? 'e' : ''}`,
  events: {
    'invites.create': () => [{ type: 'invites.create', invite: draft }],
    'invites.revoke': () => [{ type: 'invites.revoke', code: 'k1' }],
    'invites.copy': () => [{ type: 'invites.copy', code: 'k1' }],
    'xstate.done.actor.load': () => [
      { type: 'xstate.done.actor.load', output: { mode: 'invites', invites: [invite('k1')], canCreate: true } },
    ],
    'xstate.error.actor.load': () => [{ type: 'xstate.error.actor.load', error: new Error('offline') }],
    'xstate.done.actor.createInvite': () => [{ type: 'xstate.done.actor.createInvite', output: {} }],
    'xstate.error.actor.createInvite': () => [{ type: 'xstate.error.actor.createInvite', error: refused }],
    'xstate.done.actor.revokeInvite': () => [{ type: 'xstate.done.actor.revokeInvite', output: {} }],
    'xstate.error.actor.revokeInvite': () => [{ type: 'xstate.error.actor.revokeInvite', error: refused }],
    'xstate.done.actor.copyCode': () => [{ type: 'xstate.done.actor.copyCode', output: undefined }],
    'xstate.error.actor.copyCode': () => [{ type: 'xstate.error.actor.copyCode', error: new Error('denied') }],
  },
});

afterEach(() => vi.useRealTimers());

describe('invite codes with a server', () => {
  it('creates, copies and revokes codes, reading the list after each change', async () => {
    vi.useFakeTimers();
    let server: InviteCodesState = { mode: 'invites', invites: [invite('k1')], canCreate: true };
    const created: NewInvite[] = [];
    const copied: string[] = [];
    const actor = createActor(
      inviteCodesMachine.provide({
        actors: {
          load: fromPromise(async () => server),
          createInvite: fromPromise<unknown, NewInvite>(async ({ input }) => {
            created.push(input);
            server = { ...server, invites: [...server.invites, invite('k2')] };
          }),
          revokeInvite: fromPromise<unknown, { code: string }>(async ({ input }) => {
            server = {
              ...server,
              invites: server.invites.map((i) => (i.code === input.code ? invite(i.code, 'revoked') : i)),
            };
          }),
          copyCode: fromPromise<unknown, { code: string }>(async ({ input }) => void copied.push(input.code)),
        },
      }),
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    expect(actor.getSnapshot().context).toMatchObject({ mode: 'invites', canCreate: true });
    actor.send({ type: 'invites.create', invite: draft });
    await vi.waitFor(() => expect(actor.getSnapshot().context.invites).toHaveLength(2));
    expect(created).toEqual([draft]);
    actor.send({ type: 'invites.copy', code: 'k2' });
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('copied')).toBe(true));
    expect(copied).toEqual(['k2']);
    // A code revoked while «Скопировано» still shows is revoked all the same.
    actor.send({ type: 'invites.revoke', code: 'k2' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.invites[1]?.state).toBe('revoked'));
    expect(registrationInviteLink('https://chat.example.org', 'k2')).toBe(
      'https://chat.example.org/auth/register?invite=k2',
    );
  });

  it('a refused code says why; a failed load can be retried', async () => {
    let fail = true;
    const actor = createActor(
      inviteCodesMachine.provide({
        actors: {
          load: fromPromise<InviteCodesState>(async () => {
            if (fail) throw new Error('offline');
            return { mode: 'open', invites: [], canCreate: false };
          }),
          createInvite: fromPromise<unknown, NewInvite>(async () => {
            throw refused;
          }),
        },
      }),
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('failed')).toBe(true));
    expect(actor.getSnapshot().context.error).toBe(INVITES_FAILED);
    fail = false;
    actor.send({ type: 'invites.reload' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'invites.create', invite: draft });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('Приглашения создают только администраторы'));
    expect(INVITE_CODE_FAILED).toMatch(/код приглашения/);
  });
});
