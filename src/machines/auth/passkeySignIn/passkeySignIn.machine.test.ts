import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { ResponseOf } from '../../../contract/api';
import { RequestFailure } from '../../../contract/failure';
import { PASSKEY_SIGN_IN_FAILED, passkeySignInMachine } from './passkeySignIn.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const signedIn = {
  user: { id: 'u1', username: 'tamara', displayName: 'Тамара' },
  accessToken: 'a',
  refreshToken: 'r',
} as unknown as ResponseOf<'passkeySignIn'>;

describeModel({
  name: 'passkeySignIn',
  machine: passkeySignInMachine.provide({ actors: { signIn: hang } }),
  events: {
    'passkey.start': () => [{ type: 'passkey.start' }],
    'xstate.done.actor.0.passkeySignIn.signingIn': () => [
      { type: 'xstate.done.actor.0.passkeySignIn.signingIn', output: signedIn },
    ],
    'xstate.error.actor.0.passkeySignIn.signingIn': () => [
      { type: 'xstate.error.actor.0.passkeySignIn.signingIn', error: new RequestFailure(400, 'Ключ не подошёл') },
      { type: 'xstate.error.actor.0.passkeySignIn.signingIn', error: new Error('NotAllowedError') },
    ],
  },
});

describe('«Войти с ключом доступа»', () => {
  it('a closed prompt and a refused passkey are said; an accepted one hands the session its tokens', async () => {
    const told: unknown[] = [];
    const answers: Array<Error | null> = [
      new Error('NotAllowedError'),
      new RequestFailure(400, 'Ключ не подошёл'),
      null,
    ];
    const page = passkeySignInMachine.provide({
      actors: {
        signIn: fromPromise(async () => {
          const refusal = answers.shift();
          if (refusal) throw refusal;
          return signedIn;
        }),
      },
    });
    const root = createActor(
      createMachine({
        invoke: [
          { src: createMachine({ on: { '*': { actions: ({ event }) => told.push(event) } } }), systemId: 'session' },
          { src: page, id: 'page' },
        ],
      }),
    ).start();
    const actor = root.getSnapshot().children.page as ReturnType<typeof createActor<typeof page>>;
    actor.send({ type: 'passkey.start' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(PASSKEY_SIGN_IN_FAILED);
    actor.send({ type: 'passkey.start' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error === 'Ключ не подошёл');
    actor.send({ type: 'passkey.start' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(told).toEqual([{ type: 'session.adopt', signIn: signedIn }]);
  });
});
