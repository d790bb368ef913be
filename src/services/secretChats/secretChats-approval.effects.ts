// Approving a new device of this person (docs/secret-chats.md "Identity keys"): the open requests from the server,
// each with the code computed in the crypto worker from its keys, the answer (the identity key sealed to the new
// device and its key signed) and this device's own waiting request, from the identity effects.
import { fromCallback, fromPromise } from 'xstate';
import type { Services } from '../app/services';
import { secretCrypto } from './crypto/worker-client';
import {
  type SecretApprovalEffects,
  secretApprovalMachine,
} from '../../machines/secretChats/secretApproval/secretApproval.machine';
import type {
  ApprovalAsked,
  SecretApprovalEvent,
  SecretApprovalInput,
} from '../../machines/secretChats/secretApproval/secretApproval.protocol';
import { secretEffects } from './secretChats.effects';

export function wireSecretApproval(s: Services) {
  const fx = secretEffects(s);
  return secretApprovalMachine.provide({
    actors: {
      listen: fromCallback<SecretApprovalEvent, SecretApprovalInput>(({ sendBack }) => {
        const now = fx.identity.pending();
        const tell = (p: typeof now) =>
          sendBack({ type: 'secretApproval.waiting', code: p?.code ?? null, declined: p?.declined === true });
        tell(now);
        const off = fx.identity.subscribe(tell);
        return () => void off();
      }),
      // Only a device holding the identity key can answer; the others are not asked.
      pending: fromPromise<ApprovalAsked[], SecretApprovalInput>(async ({ input }) => {
        const c = secretCrypto();
        if (!(await c.identityStatus(input.userId)).publicKey) {
          // This device waits for its own approval, and the event may be its answer: the registration asks now.
          fx.identity.answered();
          return [];
        }
        const { approvals } = await s.api.call('secretApprovals', {});
        return Promise.all(
          approvals.map(async (a) => ({
            id: a.id,
            deviceKey: a.deviceKey,
            exchangeKey: a.exchangeKey,
            code: await c.approvalCode(a.deviceKey, a.exchangeKey),
          })),
        );
      }),
      approve: fromPromise<unknown, SecretApprovalInput & { request: ApprovalAsked }>(async ({ input }) => {
        const answer = await secretCrypto().approve(input.userId, input.request);
        return s.api.call('secretApprovalAnswer', { params: { id: input.request.id }, body: answer });
      }),
      decline: fromPromise<unknown, SecretApprovalInput & { request: ApprovalAsked }>(({ input }) =>
        s.api.call('secretApprovalDecline', { params: { id: input.request.id } }),
      ),
      askAgain: fromPromise<unknown, SecretApprovalInput>(async () => fx.identity.askAgain()),
      reset: fromPromise<unknown, SecretApprovalInput>(({ input }) => fx.identity.reset(input.userId)),
    } satisfies SecretApprovalEffects,
  });
}
