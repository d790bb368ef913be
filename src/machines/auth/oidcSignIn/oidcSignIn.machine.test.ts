import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, fromCallback, fromPromise, setup, waitFor } from 'xstate';
import { user } from '../../../../tests/fixtures/session';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { OIDC_FAILED, OIDC_TAGS, type OidcPending, oidcSignInMachine } from './oidcSignIn.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const signedIn = { user, accessToken: 'a1', refreshToken: 'r1', deviceMark: 'm.1' };
const pending: OidcPending = { pendingLink: 'pl', displayName: 'Ольга', canCreate: true, needsInvite: false };
const STALE = 'Вход устарел или начат в другой вкладке. Начните вход заново';

describeModel({
  name: 'oidcSignIn',
  machine: oidcSignInMachine.provide({ actors: { redirect: hang, complete: hang, create: hang, link: hang } }),
  inputs: [{ callback: null }, { callback: '?code=c&state=s' }],
  events: {
    'oidc.start': () => [{ type: 'oidc.start' }],
    'oidc.create': () => [{ type: 'oidc.create' }, { type: 'oidc.create', inviteCode: 'INVITE123' }],
    'oidc.link': () => [{ type: 'oidc.link', username: 'olga', password: 'пароль-ольги' }],
    'xstate.error.actor.0.oidcSignIn.redirecting': () => [
      { type: 'xstate.error.actor.0.oidcSignIn.redirecting', error: new Error('blocked') },
    ],
    'xstate.done.actor.complete': () => [
      { type: 'xstate.done.actor.complete', output: { signedIn, pending: null } },
      { type: 'xstate.done.actor.complete', output: { signedIn: null, pending } },
    ],
    'xstate.error.actor.complete': () => [
      { type: 'xstate.error.actor.complete', error: new RequestFailure(400, STALE) },
      { type: 'xstate.error.actor.complete', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.create': () => [{ type: 'xstate.done.actor.create', output: signedIn }],
    'xstate.error.actor.create': () => [
      { type: 'xstate.error.actor.create', error: new RequestFailure(403, 'Регистрация на этом сервере закрыта') },
    ],
    'xstate.done.actor.link': () => [{ type: 'xstate.done.actor.link', output: signedIn }],
    'xstate.error.actor.link': () => [
      { type: 'xstate.error.actor.link', error: new RequestFailure(401, 'Неверный никнейм или пароль') },
    ],
  },
});

/** The machine beside a stand-in session (systemId 'session') that records what it is told. */
function run(
  callback: string | null,
  answers: { complete?: () => Promise<unknown>; create?: () => Promise<unknown>; link?: () => Promise<unknown> },
) {
  const told: EventObject[] = [];
  const inputs: unknown[] = [];
  const machine = oidcSignInMachine.provide({
    actors: {
      redirect: hang,
      complete: fromPromise(async ({ input }) => {
        inputs.push(input);
        return (answers.complete ?? (() => Promise.resolve({ signedIn, pending: null })))();
      }) as never,
      create: fromPromise(async ({ input }) => {
        inputs.push(input);
        return (answers.create ?? (() => Promise.resolve(signedIn)))();
      }) as never,
      link: fromPromise(async ({ input }) => {
        inputs.push(input);
        return (answers.link ?? (() => Promise.resolve(signedIn)))();
      }) as never,
    },
  });
  const root = setup({
    actors: { session: fromCallback(({ receive }) => receive((e) => told.push(e))), oidc: machine },
  }).createMachine({
    invoke: [
      { src: 'session', systemId: 'session' },
      { id: 'oidc', src: 'oidc', input: { callback } },
    ],
  });
  const actor = createActor(root).start();
  const oidc = actor.getSnapshot().children.oidc as unknown as ReturnType<typeof createActor<typeof machine>>;
  return { oidc, told, inputs };
}

describe('organisation sign-in', () => {
  it('hands a linked person’s tokens to the session', async () => {
    const { oidc, told, inputs } = run('?code=c&state=s', {});
    await waitFor(oidc, (s) => s.matches('done'));
    expect(inputs).toEqual([{ callback: '?code=c&state=s' }]);
    expect(told).toEqual([{ type: 'session.adopt', signIn: signedIn }]);
  });

  it('offers the choice, then links by password and signs in', async () => {
    const { oidc, told, inputs } = run('?code=c', {
      complete: () => Promise.resolve({ signedIn: null, pending }),
      link: () => Promise.reject(new RequestFailure(401, 'Неверный никнейм или пароль')),
    });
    await waitFor(oidc, (s) => s.matches('choosing'));
    expect(oidc.getSnapshot().context.pending).toEqual(pending);
    oidc.send({ type: 'oidc.link', username: 'olga', password: 'wrong' });
    await waitFor(oidc, (s) => s.matches('choosing') && s.context.error !== null);
    expect(oidc.getSnapshot().context.error).toBe('Неверный никнейм или пароль');
    expect(told).toEqual([]);
    oidc.send({ type: 'oidc.create', inviteCode: 'INVITE123' });
    await waitFor(oidc, (s) => s.matches('done'));
    expect(inputs.slice(1)).toEqual([
      { pendingLink: 'pl', username: 'olga', password: 'wrong' },
      { pendingLink: 'pl', inviteCode: 'INVITE123' },
    ]);
    expect(told).toEqual([{ type: 'session.adopt', signIn: signedIn }]);
  });

  it('shows the server’s refusal, or a general message, and starts again', async () => {
    const refused = run('?code=old', { complete: () => Promise.reject(new RequestFailure(400, STALE)) });
    await waitFor(refused.oidc, (s) => s.matches('failed'));
    expect(refused.oidc.getSnapshot().context.error).toBe(STALE);
    refused.oidc.send({ type: 'oidc.start' });
    expect(refused.oidc.getSnapshot().hasTag(OIDC_TAGS.busy)).toBe(true);
    expect(refused.oidc.getSnapshot().context.error).toBeNull();
    const offline = run('?code=c', { complete: () => Promise.reject(new RequestFailure(null, null)) });
    await waitFor(offline.oidc, (s) => s.matches('failed'));
    expect(offline.oidc.getSnapshot().context.error).toBe(OIDC_FAILED);
  });

  it('waits on the sign-in page until asked to leave', () => {
    const { oidc } = run(null, {});
    expect(oidc.getSnapshot().value).toBe('ready');
  });
});
