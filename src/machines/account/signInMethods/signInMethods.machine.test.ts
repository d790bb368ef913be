import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { SIGN_IN_METHODS_FAILED, signInMethodsMachine } from './signInMethods.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const methods = { password: true, provider: 'Корпоративный вход' };

describeModel({
  name: 'signInMethods',
  machine: signInMethodsMachine.provide({ actors: { loadMethods: hang } }),
  events: {
    'signInMethods.retry': () => [{ type: 'signInMethods.retry' }],
    'xstate.done.actor.loadMethods': () => [{ type: 'xstate.done.actor.loadMethods', output: methods }],
    'xstate.error.actor.loadMethods': () => [
      { type: 'xstate.error.actor.loadMethods', error: new RequestFailure(null, null) },
    ],
  },
});

describe('sign-in methods', () => {
  it('shows what the server says, and offers a retry after a failure', async () => {
    let fail = true;
    const actor = createActor(
      signInMethodsMachine.provide({
        actors: {
          loadMethods: fromPromise(async () => {
            if (fail) throw new RequestFailure(null, null);
            return methods;
          }) as never,
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe(SIGN_IN_METHODS_FAILED);
    fail = false;
    actor.send({ type: 'signInMethods.retry' });
    await waitFor(actor, (s) => s.matches('known'));
    expect(actor.getSnapshot().context).toEqual({ methods, error: null });
  });
});
