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
    'secretApproval.waiting': () => [{ type: 'secretApproval.waiting', code: '654321' }],
  },
  contextKey: (c) => ({ request: c.request?.id ?? null, declined: c.declined, own: c.ownCode, error: c.error }),
});

describe('secretApproval behaviour', () => {
  it('asks about the first request not declined, answers it, and words a refusal', async () => {
    const lists: ApprovalAsked[][] = [[asked('r1'), asked('r2')], [asked('r1'), asked('r2')], []];
    const approved: string[] = [];
    let fail = true;
    const actor = createActor(
      secretApprovalMachine.provide({
        actors: {
          serverEvents: fromCallback(() => () => {}),
          listen: fromCallback(() => () => {}),
          pending: fromPromise<ApprovalAsked[], SecretApprovalInput>(async () => lists.shift() ?? []),
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
    actor.stop();
  });
});
