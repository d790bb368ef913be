import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../../tests/model/harness';
import { RequestFailure } from '../../../../contract/failure';
import {
  adminRegistrationMachine,
  type NewInvite,
  REGISTRATION_FAILED,
  type RegistrationInvite,
  registrationInviteLink,
  type ServerSettings,
} from './adminRegistration.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const settings: ServerSettings = { registration: 'open', membersCanInvite: false, retentionDays: null };
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
const refused = new RequestFailure(403, 'Доступно только администраторам');
const draft: NewInvite = { expiresInHours: 24, maxUses: 5, note: 'Отдел продаж' };

describeModel({
  name: 'adminRegistration',
  machine: adminRegistrationMachine.provide({
    actors: { load: hang, saveSettings: hang, createInvite: hang, revokeInvite: hang, copyCode: hang },
  }),
  contextKey: (c) =>
    `${c.settings?.registration ?? ''}|${c.invites.length}|${c.code ?? ''}|${c.draft ? 'd' : ''}|${c.change ? 'c' : ''}|${c.error ? 'e' : ''}`,
  events: {
    'registration.save': () => [{ type: 'registration.save', change: { registration: 'invites' } }],
    'registration.createInvite': () => [{ type: 'registration.createInvite', invite: draft }],
    'registration.revoke': () => [{ type: 'registration.revoke', code: 'k1' }],
    'registration.copy': () => [{ type: 'registration.copy', code: 'k1' }],
    'xstate.done.actor.load': () => [{ type: 'xstate.done.actor.load', output: { settings, invites: [invite('k1')] } }],
    'xstate.error.actor.load': () => [{ type: 'xstate.error.actor.load', error: refused }],
    'xstate.done.actor.saveSettings': () => [
      { type: 'xstate.done.actor.saveSettings', output: { ...settings, registration: 'invites' } },
    ],
    'xstate.error.actor.saveSettings': () => [{ type: 'xstate.error.actor.saveSettings', error: refused }],
    'xstate.done.actor.createInvite': () => [{ type: 'xstate.done.actor.createInvite', output: {} }],
    'xstate.error.actor.createInvite': () => [{ type: 'xstate.error.actor.createInvite', error: refused }],
    'xstate.done.actor.revokeInvite': () => [{ type: 'xstate.done.actor.revokeInvite', output: {} }],
    'xstate.error.actor.revokeInvite': () => [{ type: 'xstate.error.actor.revokeInvite', error: refused }],
    'xstate.done.actor.copyCode': () => [{ type: 'xstate.done.actor.copyCode', output: undefined }],
    'xstate.error.actor.copyCode': () => [{ type: 'xstate.error.actor.copyCode', error: new Error('denied') }],
  },
});

afterEach(() => vi.useRealTimers());

describe('«Регистрация» with a server', () => {
  it('switches the mode («Сохранено» runs out), creates, copies and revokes codes, reading the list after each change', async () => {
    vi.useFakeTimers();
    let server = { settings, invites: [invite('k1')] };
    const created: NewInvite[] = [];
    const copied: string[] = [];
    const actor = createActor(
      adminRegistrationMachine.provide({
        actors: {
          load: fromPromise(async () => server),
          saveSettings: fromPromise(async ({ input }: { input: Partial<ServerSettings> }) => {
            server = { ...server, settings: { ...server.settings, ...input } };
            return server.settings;
          }),
          createInvite: fromPromise(async ({ input }: { input: NewInvite }) => {
            created.push(input);
            server = { ...server, invites: [...server.invites, invite('k2')] };
          }) as never,
          revokeInvite: fromPromise(async ({ input }: { input: { code: string } }) => {
            server = {
              ...server,
              invites: server.invites.map((i) => (i.code === input.code ? invite(i.code, 'revoked') : i)),
            };
          }),
          copyCode: fromPromise(
            async ({ input }: { input: { code: string } }) => void copied.push(input.code),
          ) as never,
        } as never,
      }),
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'registration.save', change: { registration: 'invites', membersCanInvite: true } });
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('saved')).toBe(true));
    expect(actor.getSnapshot().context.settings).toEqual({
      ...settings,
      registration: 'invites',
      membersCanInvite: true,
    });
    // A code made while «Сохранено» still shows is made all the same.
    actor.send({ type: 'registration.createInvite', invite: draft });
    await vi.waitFor(() => expect(actor.getSnapshot().context.invites).toHaveLength(2));
    expect(created).toEqual([draft]);
    expect(actor.getSnapshot().hasTag('saved')).toBe(false);
    actor.send({ type: 'registration.copy', code: 'k2' });
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('copied')).toBe(true));
    expect(copied).toEqual(['k2']);
    actor.send({ type: 'registration.revoke', code: 'k2' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.invites[1]?.state).toBe('revoked'));
    expect(registrationInviteLink('https://chat.example.org', 'k2')).toBe(
      'https://chat.example.org/auth/register?invite=k2',
    );
  });

  it('a failed load says why and can be retried', async () => {
    let fail = true;
    const actor = createActor(
      adminRegistrationMachine.provide({
        actors: {
          load: fromPromise(async () => {
            if (fail) throw new Error('offline');
            return { settings, invites: [] };
          }),
        } as never,
      }),
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('failed')).toBe(true));
    expect(actor.getSnapshot().context.error).toBe(REGISTRATION_FAILED);
    fail = false;
    actor.send({ type: 'registration.reload' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
