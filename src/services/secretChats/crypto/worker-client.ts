// The page's one crypto service (the worker), made on first use: users without secret chats never load ts-mls or
// start the worker. Sign-out clears the user's keys and plaintexts (and the keys of files not sent yet) and ends
// the worker.
import { createWorkerSecretCrypto, type SecretCrypto } from './secret-crypto';

let current: { crypto: SecretCrypto; terminate(): void } | null = null;

export function secretCrypto(): SecretCrypto {
  current ??= createWorkerSecretCrypto();
  return current.crypto;
}

/** Deletes everything of the user this browser keeps for secret chats, then stops the worker. */
export async function clearSecrets(userId: string): Promise<void> {
  // The keys of files not sent yet: only a page that loaded the files' module has any (a module already loaded
  // comes without a request; one that cannot be fetched had nothing to forget).
  await import('../secret-files').then((m) => m.forgetAllSealed()).catch(() => undefined);
  const running = current;
  current = null;
  if (running) {
    try {
      await running.crypto.clear(userId);
    } finally {
      running.terminate();
    }
    return;
  }
  // No worker this session: the store is cleared directly (it may hold records of an earlier session).
  const [{ createSecretStore }, { clearSearchIndex }] = await Promise.all([
    import('./secret-store'),
    import('./search-backend'),
  ]);
  await Promise.all([createSecretStore().clear(userId), clearSearchIndex(userId)]);
}

/**
 * A message deleted for everyone leaves the local search index. Only while the worker runs: it does whenever the
 * chats list has a secret chat (the device actor), and a plaintext chat's deletion must not start it.
 */
export async function forgetSecretMessage(userId: string, messageId: string): Promise<void> {
  await current?.crypto.unindexMessage(userId, messageId);
}
