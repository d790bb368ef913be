import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { adminRegistrationMachine, REGISTRATION_FAILED, type ServerSettings } from './adminRegistration.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const settings: ServerSettings = {
  registration: 'open',
  membersCanInvite: false,
  retentionDays: null,
  directory: false,
  guestLinks: true,
  passwordSignIn: true,
  twoFactorRequired: 'nobody',
};
const refused = new RequestFailure(403, 'Доступно только администраторам');

describeModel({
  name: 'adminRegistration',
  machine: adminRegistrationMachine.provide({ actors: { load: hang, saveSettings: hang } }),
  contextKey: (c) => `${c.settings?.registration ?? ''}|${c.change ? 'c' : ''}|${c.error ? 'e' : ''}`,
  events: {
    'registration.save': () => [{ type: 'registration.save', change: { registration: 'invites' } }],
    'xstate.done.actor.load': () => [{ type: 'xstate.done.actor.load', output: settings }],
    'xstate.error.actor.load': () => [{ type: 'xstate.error.actor.load', error: refused }],
    'xstate.done.actor.saveSettings': () => [
      { type: 'xstate.done.actor.saveSettings', output: { ...settings, registration: 'invites' } },
    ],
    'xstate.error.actor.saveSettings': () => [{ type: 'xstate.error.actor.saveSettings', error: refused }],
  },
});

afterEach(() => vi.useRealTimers());

describe('«Регистрация» with a server', () => {
  it('switches the mode and lets members invite; «Сохранено» runs out', async () => {
    vi.useFakeTimers();
    let server = settings;
    const actor = createActor(
      adminRegistrationMachine.provide({
        actors: {
          load: fromPromise(async () => server),
          saveSettings: fromPromise(async ({ input }: { input: Partial<ServerSettings> }) => {
            server = { ...server, ...input };
            return server;
          }),
        },
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
    await vi.advanceTimersByTimeAsync(10_000);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
  });

  it('a failed load says why and can be retried', async () => {
    let fail = true;
    const actor = createActor(
      adminRegistrationMachine.provide({
        actors: {
          load: fromPromise(async () => {
            if (fail) throw new Error('offline');
            return settings;
          }),
        },
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
