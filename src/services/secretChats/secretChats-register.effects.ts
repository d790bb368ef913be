// The background registration's effects (secretRegistration.protocol.ts): the crypto worker registers this browser
// whole, with its own requests, and says whether a request for approval is open. Only the worker client and this
// small module load for it: the device actor's code loads when a secret chat, the creation dialog or an approval
// needs it (docs/secret-chats.md "Reaching everyone").
import { fromCallback, fromPromise } from 'xstate';
import type { Services } from '../app/services';
import { secretCrypto } from './crypto/worker-client';
import { onApprovalAsked } from './approval-asked';
import {
  type SecretRegistrationEffects,
  secretRegistrationMachine,
} from '../../machines/secretChats/secretRegistration/secretRegistration.machine';
import type {
  RegistrationOutcome,
  SecretRegistrationEvent,
  SecretRegistrationInput,
} from '../../machines/secretChats/secretRegistration/secretRegistration.protocol';
import { RequestFailure } from '../../contract/failure';

export function wireSecretRegistration(s: Services) {
  return secretRegistrationMachine.provide({
    actors: {
      register: fromPromise<RegistrationOutcome, SecretRegistrationInput>(async ({ input }) => {
        // The API's address and the session's access token, for the worker's own requests.
        const access = s.api.access?.();
        if (!access) return { device: true };
        const r = await secretCrypto().registerDevice(input.userId, access);
        if ('failed' in r) throw new RequestFailure(r.failed.status, r.failed.message);
        // The identity key is on another device: asking it waits until this browser needs secret chats (a person
        // who never uses them is never asked to approve a sign-in).
        if ('page' in r && r.page === 'approval') return { device: false, unapproved: true };
        // A token to renew: the device actor's registration takes the steps.
        if ('page' in r) return { device: true };
        return { device: (r.approvals ?? 0) > 0 };
      }),
      wanted: fromCallback<SecretRegistrationEvent, SecretRegistrationInput>(({ sendBack }) =>
        onApprovalAsked(() => sendBack({ type: 'secretRegistration.wanted' })),
      ),
      pending: fromPromise<number, SecretRegistrationInput>(async () => {
        const { approvals } = await s.api.call('secretApprovals', {});
        return approvals.length;
      }),
    } satisfies SecretRegistrationEffects,
  });
}
