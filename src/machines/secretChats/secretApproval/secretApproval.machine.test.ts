import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { type ApprovalAsked, type SecretApprovalInput, secretApprovalMachine } from './secretApproval.machine';

const hang = <O, I>() => fromPromise<O, I>(() => new Promise<never>(() => {}));
const asked = (id: string): ApprovalAsked => ({ id, deviceKey: `k-${id}`, exchangeKey: `x-${id}`, code: '123456' });
const refused = Object.assign(new Error('Подпись не сделана ключом личности этого аккаунта'), {
  name: 'RequestFailure',
});

describeModel({
  name: 'secretApproval',
  machine: secretApprovalMachine.provide({
    actors: {
      serverEvents: fromCallback(() => () => {}),
      listen: fromCallback(() => () => {}),
      pending: hang<ApprovalAsked[], SecretApprovalInput>(),
      approve: hang<unknown, SecretApprovalInput & { request: ApprovalAsked }>(),
      decline: hang<unknown, SecretApprovalInput & { request: ApprovalAsked }>(),
      askAgain: hang<unknown, SecretApprovalInput>(),
      reset: hang<unknown, SecretApprovalInput>(),
    },
  }),
  inputs: [{ userId: 'u1' }],
  events: {
    'xstate.done.actor.0.secretApproval.checking': () => [
      { type: 'xstate.done.actor.0.secretApproval.checking', output: [asked('r1')] },
      { type: 'xstate.done.actor.0.secretApproval.checking', output: [] },
    ],
    'xstate.error.actor.0.secretApproval.checking': () => [
      { type: 'xstate.error.actor.0.secretApproval.checking', error: new Error('offline') },
    ],
    'xstate.done.actor.0.secretApproval.approving': () => [
      { type: 'xstate.done.actor.0.secretApproval.approving', output: {} },
    ],
    'xstate.error.actor.0.secretApproval.approving': () => [
      { type: 'xstate.error.actor.0.secretApproval.approving', error: refused },
    ],
    'xstate.done.actor.0.secretApproval.declining': () => [
      { type: 'xstate.done.actor.0.secretApproval.declining', output: {} },
    ],
    'xstate.error.actor.0.secretApproval.declining': () => [
      { type: 'xstate.error.actor.0.secretApproval.declining', error: new Error('offline') },
    ],
    'xstate.done.actor.0.secretApproval.askingAgain': () => [
      { type: 'xstate.done.actor.0.secretApproval.askingAgain', output: {} },
    ],
    'xstate.error.actor.0.secretApproval.askingAgain': () => [
      { type: 'xstate.error.actor.0.secretApproval.askingAgain', error: new Error('offline') },
    ],
    'xstate.done.actor.0.secretApproval.resetting': () => [
      { type: 'xstate.done.actor.0.secretApproval.resetting', output: {} },
    ],
    'xstate.error.actor.0.secretApproval.resetting': () => [
      { type: 'xstate.error.actor.0.secretApproval.resetting', error: new Error('offline') },
    ],
    'secretApproval.waiting': () => [
      { type: 'secretApproval.waiting', code: '654321' },
      { type: 'secretApproval.waiting', code: '654321', declined: true },
    ],
  },
  contextKey: (c) => ({ request: c.request?.id ?? null, declined: c.declined, own: c.ownCode, error: c.error }),
});

describe('secretApproval behaviour', () => {
  it('asks about the first request not declined, answers it, and words a refusal', async () => {
    const lists: ApprovalAsked[][] = [[asked('r1'), asked('r2')], [asked('r1'), asked('r2')], []];
    const approved: string[] = [];
    const declinedOnServer: string[] = [];
    let fail = true;
    const actor = createActor(
      secretApprovalMachine.provide({
        actors: {
          serverEvents: fromCallback(() => () => {}),
          listen: fromCallback(() => () => {}),
          pending: fromPromise<ApprovalAsked[], SecretApprovalInput>(async () => lists.shift() ?? []),
          decline: fromPromise<unknown, SecretApprovalInput & { request: ApprovalAsked }>(async ({ input }) => {
            declinedOnServer.push(input.request.id);
            return {};
          }),
          askAgain: fromPromise<unknown, SecretApprovalInput>(async () => ({})),
          reset: fromPromise<unknown, SecretApprovalInput>(async () => {
            throw new Error('offline');
          }),
          approve: fromPromise<unknown, SecretApprovalInput & { request: ApprovalAsked }>(async ({ input }) => {
            if (fail) {
              fail = false;
              throw refused;
            }
            approved.push(input.request.id);
            return {};
          }),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    const settle = () => new Promise((r) => setTimeout(r, 0));
    await settle();
    expect(actor.getSnapshot().hasTag('asking')).toBe(true);
    expect(actor.getSnapshot().context.request?.id).toBe('r1');
    actor.send({ type: 'secretApproval.decline' });
    await settle();
    expect(actor.getSnapshot().context.request?.id).toBe('r2');
    expect(declinedOnServer).toEqual(['r1']);
    actor.send({ type: 'secretApproval.confirm' });
    await settle();
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Подпись не сделана ключом личности этого аккаунта');
    actor.send({ type: 'secretApproval.retry' });
    await settle();
    await settle();
    expect(approved).toEqual(['r2']);
    expect(actor.getSnapshot().hasTag('asking')).toBe(false);
    actor.send({ type: 'secretApproval.waiting', code: '111111' });
    expect(actor.getSnapshot().context.ownCode).toBe('111111');
    // Its own request declined elsewhere: it says so; a failed reset is worded; another try asks again.
    actor.send({ type: 'secretApproval.waiting', code: '111111', declined: true });
    expect(actor.getSnapshot().hasTag('declined')).toBe(true);
    actor.send({ type: 'secretApproval.reset' });
    await settle();
    expect(actor.getSnapshot().hasTag('declined')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Не удалось создать новый ключ личности');
    actor.send({ type: 'secretApproval.askAgain' });
    await settle();
    expect(actor.getSnapshot().hasTag('declined')).toBe(false);
    actor.stop();
  });
});
