// The dialog «Ключ восстановления»'s actor provided from the services (docs/secret-chats.md "The recovery key"),
// and the page's one backup uploader. Loaded with the dialog, or with the device actor's wiring, never with the
// first bundle.
import { fromPromise } from 'xstate';
import type { Services } from '../app/services';
import { secretCrypto } from './crypto/worker-client';
import {
  type SecretRecoveryEffects,
  secretRecoveryMachine,
} from '../../machines/secretChats/secretRecovery/secretRecovery.machine';
import type { RecoveryMade } from '../../machines/secretChats/secretRecovery/secretRecovery.protocol';
import { createRecoveryEffects, type RecoveryEffects } from './recovery-effects';

let shared: { api: Services['api']; effects: RecoveryEffects } | null = null;

export function recoveryEffects(s: Services): RecoveryEffects {
  if (!shared || shared.api !== s.api) shared = { api: s.api, effects: createRecoveryEffects(s.api, secretCrypto) };
  return shared.effects;
}

/** Uploads what this device kept since (a no-op without a recovery key); failures wait for the next time. */
export function backUp(s: Services, userId: string): void {
  recoveryEffects(s)
    .sync(userId)
    .catch(() => undefined);
}

export function wireSecretRecovery(s: Services) {
  const fx = recoveryEffects(s);
  return secretRecoveryMachine.provide({
    actors: {
      status: fromPromise(({ input }: { input: { userId: string } }) => fx.status(input.userId)),
      generate: fromPromise(({ input }: { input: { userId: string } }) => fx.generate(input.userId)),
      confirm: fromPromise(({ input }: { input: { userId: string; made: RecoveryMade } }) => fx.confirm(input)),
      restore: fromPromise(({ input }: { input: { userId: string; phrase: string } }) => fx.restore(input)),
      remove: fromPromise(({ input }: { input: { userId: string } }) => fx.remove(input.userId)),
    } satisfies SecretRecoveryEffects,
  });
}
