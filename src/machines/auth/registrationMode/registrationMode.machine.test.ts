import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { registrationModeMachine } from './registrationMode.machine';

const signIn = { provider: 'Корпоративный вход', passwords: false };
const hang = fromPromise(() => new Promise<never>(() => {})) as never;

describeModel({
  name: 'registrationMode',
  machine: registrationModeMachine.provide({ actors: { loadMode: hang } }),
  events: {
    'xstate.done.actor.loadMode': () => [
      { type: 'xstate.done.actor.loadMode', output: { mode: 'invites', firstAccount: false, signIn } },
    ],
    'xstate.error.actor.loadMode': () => [{ type: 'xstate.error.actor.loadMode', error: new Error('offline') }],
  },
});

describe('registration mode', () => {
  it("takes the server's mode, and «Открытая» when the server cannot be asked", async () => {
    let fail = false;
    const actor = createActor(
      registrationModeMachine.provide({
        actors: {
          loadMode: fromPromise(async () => {
            if (fail) throw new Error('offline');
            return { mode: 'closed' as const, firstAccount: true, signIn };
          }) as never,
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('known'));
    expect(actor.getSnapshot().context).toEqual({ mode: 'closed', firstAccount: true, signIn });
    fail = true;
    actor.send({ type: 'registrationMode.reload' });
    await waitFor(actor, (s) => s.matches('known'));
    // Unknown: no promise of the administrator's role.
    expect(actor.getSnapshot().context).toMatchObject({
      mode: 'open',
      firstAccount: false,
      signIn: { provider: null, passwords: true },
    });
  });
});
