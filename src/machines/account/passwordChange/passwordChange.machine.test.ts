import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { formProblem, PASSWORD_TOO_SHORT, PASSWORDS_DIFFER, passwordMachine } from './passwordChange.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const good = { currentPassword: 'старый пароль', newPassword: 'новый пароль 1', repeat: 'новый пароль 1' };

describeModel({
  name: 'passwordChange',
  machine: passwordMachine.provide({ actors: { changePassword: hang } }),
  events: {
    'password.submit': () => [
      { type: 'password.submit', fields: good },
      { type: 'password.submit', fields: { ...good, repeat: 'другой' } },
    ],
    'xstate.done.actor.0.passwordChange.saving': () => [{ type: 'xstate.done.actor.0.passwordChange.saving' }],
    'xstate.error.actor.0.passwordChange.saving': () => [
      { type: 'xstate.error.actor.0.passwordChange.saving', error: new RequestFailure(400, 'Неверный текущий пароль') },
    ],
  },
});

describe('«Сменить пароль»', () => {
  it('checks the form before sending: length, then the repeat', () => {
    expect(formProblem({ ...good, newPassword: 'short', repeat: 'short' })).toBe(PASSWORD_TOO_SHORT);
    expect(formProblem({ ...good, repeat: 'новый пароль 2' })).toBe(PASSWORDS_DIFFER);
    expect(formProblem(good)).toBeNull();
  });

  it('sends the current and new password, shows the server’s refusal, then succeeds', async () => {
    const sent: unknown[] = [];
    let refuse = true;
    const actor = createActor(
      passwordMachine.provide({
        actors: {
          changePassword: fromPromise(async ({ input }) => {
            sent.push(input);
            if (refuse) throw new RequestFailure(400, 'Неверный текущий пароль');
            return { ok: true };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'password.submit', fields: { ...good, repeat: 'нет' } });
    expect(actor.getSnapshot().context.error).toBe(PASSWORDS_DIFFER);
    expect(sent).toEqual([]);
    actor.send({ type: 'password.submit', fields: good });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.hasTag('editable'));
    expect(actor.getSnapshot().context.error).toBe('Неверный текущий пароль');
    refuse = false;
    actor.send({ type: 'password.submit', fields: good });
    await waitFor(actor, (s) => s.hasTag('saved'));
    expect(sent).toEqual([
      { currentPassword: good.currentPassword, newPassword: good.newPassword },
      { currentPassword: good.currentPassword, newPassword: good.newPassword },
    ]);
    actor.send({ type: 'password.edit' });
    expect(actor.getSnapshot().hasTag('saved')).toBe(false);
  });

  it('tells «Устройства», when shown, to load again after a change', async () => {
    const heard: string[] = [];
    const devices = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event.type) } } });
    const form = passwordMachine.provide({
      actors: { changePassword: fromPromise(async () => ({ ok: true })) as never },
    });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'devices', src: devices, systemId: 'devices' },
          { id: 'form', src: form, systemId: 'passwordChange' },
        ],
      }),
    ).start();
    const actor = root.system.get('passwordChange');
    actor.send({ type: 'password.submit', fields: good });
    await waitFor(actor, (s: { hasTag(t: string): boolean }) => s.hasTag('saved'));
    expect(heard).toEqual(['devices.reload']);
  });
});
