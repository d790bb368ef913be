import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { LIMITS } from '../../../contract/limits';
import { PASSWORD_TOO_SHORT, PASSWORDS_DIFFER } from '../../account/passwordChange/passwordChange.protocol';
import {
  passwordResetMachine,
  RESET_FAILED,
  RESET_LOAD_FAILED,
  RESET_TAGS,
  type ResetAccount,
  resetFormProblem,
} from './passwordReset.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const account: ResetAccount = { username: 'petr', displayName: 'Пётр', expiresAt: '2030-01-01T00:00:00.000Z' };
const INVALID = 'Ссылка для сброса пароля недействительна или устарела';
const gone = new RequestFailure(404, INVALID);
const good = { password: 'новый-пароль', repeat: 'новый-пароль' };

describeModel({
  name: 'passwordReset',
  machine: passwordResetMachine.provide({ actors: { loadAccount: hang, resetPassword: hang } }),
  inputs: [{ token: 'tok_0123456789abcdef' }],
  events: {
    'reset.submit': () => [
      { type: 'reset.submit', fields: good },
      { type: 'reset.submit', fields: { password: 'short', repeat: 'short' } },
    ],
    'reset.retry': () => [{ type: 'reset.retry' }],
    'xstate.done.actor.loadAccount': () => [{ type: 'xstate.done.actor.loadAccount', output: account }],
    'xstate.error.actor.loadAccount': () => [
      { type: 'xstate.error.actor.loadAccount', error: gone },
      { type: 'xstate.error.actor.loadAccount', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.resetPassword': () => [{ type: 'xstate.done.actor.resetPassword', output: { ok: true } }],
    'xstate.error.actor.resetPassword': () => [
      { type: 'xstate.error.actor.resetPassword', error: new RequestFailure(410, INVALID) },
      { type: 'xstate.error.actor.resetPassword', error: new RequestFailure(500, null) },
    ],
  },
});

function start(answers: { account?: Error; reset?: Error[] }) {
  const sent: unknown[] = [];
  const failures = [...(answers.reset ?? [])];
  const actor = createActor(
    passwordResetMachine.provide({
      actors: {
        loadAccount: fromPromise(async () => {
          if (answers.account) throw answers.account;
          return account;
        }) as never,
        resetPassword: fromPromise(async ({ input }) => {
          sent.push(input);
          const failure = failures.shift();
          if (failure) throw failure;
          return { ok: true };
        }) as never,
      },
    }),
    { input: { token: 'tok_0123456789abcdef' } },
  ).start();
  return { actor, sent };
}

describe('passwordReset with a server', () => {
  it('names the account, checks the form as registration does, saves once and is done', async () => {
    const { actor, sent } = start({});
    expect(actor.getSnapshot().hasTag(RESET_TAGS.busy)).toBe(true);
    await waitFor(actor, (s) => s.value === 'ready');
    expect(actor.getSnapshot().context.account).toEqual(account);
    actor.send({ type: 'reset.submit', fields: { password: 'коротко', repeat: 'коротко' } });
    expect(actor.getSnapshot().context.error).toBe(`Пароль — не короче ${LIMITS.passwordMin} символов`);
    actor.send({ type: 'reset.submit', fields: { password: 'новый-пароль', repeat: 'другой-пароль' } });
    expect(actor.getSnapshot().context.error).toBe('Пароли не совпадают');
    expect(sent).toEqual([]);
    actor.send({ type: 'reset.submit', fields: good });
    expect(actor.getSnapshot().hasTag(RESET_TAGS.busy)).toBe(true);
    await waitFor(actor, (s) => s.hasTag(RESET_TAGS.done));
    expect(sent).toEqual([{ token: 'tok_0123456789abcdef', password: 'новый-пароль' }]);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('an unknown, used or expired link shows the server message for good; no answer offers a retry', async () => {
    const dead = start({ account: gone });
    await waitFor(dead.actor, (s) => s.hasTag(RESET_TAGS.invalid));
    expect(dead.actor.getSnapshot().context.error).toBe(INVALID);
    const flaky = start({ account: new RequestFailure(null, null) });
    await waitFor(flaky.actor, (s) => s.value === 'unreachable');
    expect(flaky.actor.getSnapshot().context.error).toBe(RESET_LOAD_FAILED);
    flaky.actor.send({ type: 'reset.retry' });
    expect(flaky.actor.getSnapshot().hasTag(RESET_TAGS.busy)).toBe(true);
  });

  it('a failed save keeps the form for another try; a link used up meanwhile turns invalid', async () => {
    const { actor, sent } = start({ reset: [new RequestFailure(500, null), new RequestFailure(410, INVALID)] });
    await waitFor(actor, (s) => s.value === 'ready');
    actor.send({ type: 'reset.submit', fields: good });
    await waitFor(actor, (s) => s.value === 'ready' && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(RESET_FAILED);
    actor.send({ type: 'reset.submit', fields: good });
    await waitFor(actor, (s) => s.hasTag(RESET_TAGS.invalid));
    expect(actor.getSnapshot().context.error).toBe(INVALID);
    expect(sent).toHaveLength(2);
  });

  it('checks a password as «Сменить пароль» does before it is sent', () => {
    const min = 'x'.repeat(LIMITS.passwordMin);
    expect(resetFormProblem({ password: min, repeat: min })).toBeNull();
    expect(resetFormProblem({ password: min.slice(1), repeat: min.slice(1) })).toBe(PASSWORD_TOO_SHORT);
    expect(resetFormProblem({ password: min, repeat: `${min}y` })).toBe(PASSWORDS_DIFFER);
  });
});
