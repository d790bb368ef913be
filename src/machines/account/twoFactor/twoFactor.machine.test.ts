import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { TWO_FACTOR_LOAD_FAILED, twoFactorMachine } from './twoFactor.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const off = { enabled: false, recoveryCodesLeft: 0, required: true };
const on = { enabled: true, recoveryCodesLeft: 10, required: true };
const codes = Array.from({ length: 10 }, (_, i) => `aaaa${i}-bbbbb`);

describeModel({
  name: 'twoFactor',
  machine: twoFactorMachine.provide({
    actors: { loadStatus: hang, begin: hang, confirm: hang, disable: hang, regenerate: hang },
  }),
  events: {
    'twoFactor.begin': () => [{ type: 'twoFactor.begin' }, { type: 'twoFactor.begin', password: 'пароль' }],
    'twoFactor.confirm': () => [{ type: 'twoFactor.confirm', code: '123456' }],
    'twoFactor.cancel': () => [{ type: 'twoFactor.cancel' }],
    'twoFactor.done': () => [{ type: 'twoFactor.done' }],
    'twoFactor.disable': () => [{ type: 'twoFactor.disable', password: 'пароль' }],
    'twoFactor.regenerate': () => [{ type: 'twoFactor.regenerate', password: 'пароль' }],
    'twoFactor.retry': () => [{ type: 'twoFactor.retry' }],
    'xstate.done.actor.0.twoFactor.loading': () => [
      { type: 'xstate.done.actor.0.twoFactor.loading', output: off },
      { type: 'xstate.done.actor.0.twoFactor.loading', output: on },
    ],
    'xstate.error.actor.0.twoFactor.loading': () => [
      { type: 'xstate.error.actor.0.twoFactor.loading', error: new Error('offline') },
    ],
    'xstate.done.actor.0.twoFactor.beginning': () => [
      { type: 'xstate.done.actor.0.twoFactor.beginning', output: { secret: 'ABC', uri: 'otpauth://totp/x' } },
    ],
    'xstate.error.actor.0.twoFactor.beginning': () => [
      { type: 'xstate.error.actor.0.twoFactor.beginning', error: new RequestFailure(400, 'Неверный пароль') },
    ],
    'xstate.done.actor.0.twoFactor.confirming': () => [
      { type: 'xstate.done.actor.0.twoFactor.confirming', output: { recoveryCodes: codes } },
    ],
    'xstate.error.actor.0.twoFactor.confirming': () => [
      { type: 'xstate.error.actor.0.twoFactor.confirming', error: new RequestFailure(400, 'Неверный код') },
    ],
    'xstate.done.actor.0.twoFactor.disabling': () => [{ type: 'xstate.done.actor.0.twoFactor.disabling' }],
    'xstate.error.actor.0.twoFactor.disabling': () => [
      { type: 'xstate.error.actor.0.twoFactor.disabling', error: new RequestFailure(400, 'Неверный пароль') },
    ],
    'xstate.done.actor.0.twoFactor.regenerating': () => [
      { type: 'xstate.done.actor.0.twoFactor.regenerating', output: { recoveryCodes: codes } },
    ],
    'xstate.error.actor.0.twoFactor.regenerating': () => [
      { type: 'xstate.error.actor.0.twoFactor.regenerating', error: new RequestFailure(400, 'Неверный пароль') },
    ],
  },
});

describe('«Двухэтапная проверка»', () => {
  it('sets up: the secret and its address, a wrong code said, the codes shown once, the session told', async () => {
    const sent: unknown[] = [];
    const told: string[] = [];
    let status = off;
    let wrong = true;
    const section = twoFactorMachine.provide({
      actors: {
        loadStatus: fromPromise(async () => status),
        begin: fromPromise(async ({ input }) => {
          sent.push(['begin', input]);
          return { secret: 'ABC', uri: 'otpauth://totp/x' };
        }),
        confirm: fromPromise(async ({ input }) => {
          sent.push(['confirm', input]);
          if (wrong) throw new RequestFailure(400, 'Неверный код');
          status = on;
          return { recoveryCodes: codes };
        }),
      },
    });
    // A stand-in session, as the app's root would be, to hear `session.twoFactorEnabled`.
    const root = createActor(
      createMachine({
        invoke: [
          {
            src: createMachine({ on: { '*': { actions: ({ event }) => told.push(event.type) } } }),
            systemId: 'session',
          },
          { src: section, id: 'section' },
        ],
      }),
    ).start();
    const actor = root.getSnapshot().children.section as ReturnType<typeof createActor<typeof section>>;
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.status).toEqual(off);
    actor.send({ type: 'twoFactor.begin' });
    await waitFor(actor, (s) => s.hasTag('settingUp'));
    expect(actor.getSnapshot().context).toMatchObject({ secret: 'ABC', uri: 'otpauth://totp/x' });
    actor.send({ type: 'twoFactor.confirm', code: '000000' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Неверный код');
    expect(actor.getSnapshot().hasTag('settingUp')).toBe(true);
    wrong = false;
    actor.send({ type: 'twoFactor.confirm', code: '123456' });
    await waitFor(actor, (s) => s.hasTag('showingCodes'));
    expect(actor.getSnapshot().context).toMatchObject({ recoveryCodes: codes, secret: null, error: null });
    expect(told).toContain('session.twoFactorEnabled');
    actor.send({ type: 'twoFactor.done' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ status: on, recoveryCodes: null });
    expect(sent).toEqual([
      ['begin', {}],
      ['confirm', { code: '000000' }],
      ['confirm', { code: '123456' }],
    ]);
  });

  it('off, new codes and a reset carry the password; a refusal is said and nothing changes', async () => {
    const sent: unknown[] = [];
    const actor = createActor(
      twoFactorMachine.provide({
        actors: {
          loadStatus: fromPromise(async () => on),
          begin: fromPromise(async ({ input }) => {
            sent.push(['begin', input]);
            throw new RequestFailure(400, 'Неверный пароль');
          }),
          disable: fromPromise(async ({ input }) => {
            sent.push(['disable', input]);
            return { ok: true };
          }),
          regenerate: fromPromise(async ({ input }) => {
            sent.push(['regenerate', input]);
            return { recoveryCodes: codes };
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'twoFactor.begin', password: 'не тот' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Неверный пароль');
    actor.send({ type: 'twoFactor.regenerate', password: 'пароль' });
    await waitFor(actor, (s) => s.hasTag('showingCodes'));
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'twoFactor.done' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'twoFactor.disable', password: 'пароль' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(sent).toEqual([
      ['begin', { password: 'не тот' }],
      ['regenerate', { password: 'пароль' }],
      ['disable', { password: 'пароль' }],
    ]);
  });

  it('a failed load says so and tries again on request', async () => {
    let fail = true;
    const actor = createActor(
      twoFactorMachine.provide({
        actors: {
          loadStatus: fromPromise(async () => {
            if (fail) throw new Error('offline');
            return off;
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe(TWO_FACTOR_LOAD_FAILED);
    fail = false;
    actor.send({ type: 'twoFactor.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
