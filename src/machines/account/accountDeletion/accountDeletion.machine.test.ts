import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { accountDeletionMachine, CONFIRMATION_NEEDED } from './accountDeletion.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;

describeModel({
  name: 'accountDeletion',
  machine: accountDeletionMachine.provide({ actors: { deleteAccount: hang } }),
  events: {
    'account.delete': () => [
      { type: 'account.delete', password: 'пароль', confirmation: 'удалить' },
      { type: 'account.delete', password: 'пароль', confirmation: 'да' },
    ],
    'xstate.done.actor.0.accountDeletion.deleting': () => [{ type: 'xstate.done.actor.0.accountDeletion.deleting' }],
    'xstate.error.actor.0.accountDeletion.deleting': () => [
      { type: 'xstate.error.actor.0.accountDeletion.deleting', error: new RequestFailure(400, 'Неверный пароль') },
    ],
  },
});

describe('«Удалить аккаунт»', () => {
  it('asks for the word and the password, shows the server’s refusal, and signs out once deleted', async () => {
    const sent: unknown[] = [];
    const heard: string[] = [];
    let refuse = true;
    const form = accountDeletionMachine.provide({
      actors: {
        deleteAccount: fromPromise(async ({ input }) => {
          sent.push(input);
          if (refuse) throw new RequestFailure(400, 'Неверный пароль');
        }) as never,
      },
    });
    const session = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event.type) } } });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'session', src: session, systemId: 'session' },
          { id: 'form', src: form, systemId: 'accountDeletion' },
        ],
      }),
    ).start();
    const actor = root.system.get('accountDeletion');
    actor.send({ type: 'account.delete', password: 'пароль', confirmation: 'удалю' });
    expect(actor.getSnapshot().context.error).toBe(CONFIRMATION_NEEDED);
    actor.send({ type: 'account.delete', password: '', confirmation: 'УДАЛИТЬ' });
    expect(sent).toEqual([]);
    actor.send({ type: 'account.delete', password: 'не тот', confirmation: ' удалить ' });
    await waitFor(actor, (s: { hasTag(t: string): boolean }) => s.hasTag('editable'));
    expect(actor.getSnapshot().context.error).toBe('Неверный пароль');
    expect(heard).toEqual([]);
    refuse = false;
    actor.send({ type: 'account.delete', password: 'пароль', confirmation: 'УДАЛИТЬ' });
    await waitFor(actor, (s: { status: string }) => s.status === 'done');
    expect(sent).toEqual([{ password: 'не тот' }, { password: 'пароль' }]);
    expect(heard).toEqual(['session.signOut']);
  });
});
