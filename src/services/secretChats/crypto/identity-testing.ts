// For node tests of the crypto core: each person's identity key made on their first browser and brought to the
// next ones by the real approval (sealed to the new browser), and every browser knowing everyone's identity key, as
// the identity effects leave them in the app.
import type { SecretCrypto } from './secret-crypto';
import { createSecretCryptoCore } from './secret-crypto-core';
import { createSecretStore, indexedDbBackend } from './secret-store';

const people = new Map<string, { publicKey: string; holder: SecretCrypto }>();
const browsers: { c: SecretCrypto; userId: string }[] = [];

/** Gives a prepared device (prepareDevice called) its person's identity key and its signature, and pins everyone. */
export async function vouch(c: SecretCrypto, userId: string): Promise<void> {
  let known = people.get(userId);
  if (!known) {
    // The person's first device, kept by this helper (a test may clear its own browsers).
    const holder = createSecretCryptoCore(
      createSecretStore(indexedDbBackend(`identity-holder-${userId}-${crypto.randomUUID()}`)),
    );
    await holder.prepareDevice(userId);
    const { publicKey } = await holder.identityCreate(userId);
    known = { publicKey, holder };
    people.set(userId, known);
  }
  {
    const request = await c.approvalRequest(userId);
    const answer = await known.holder.approve(userId, request);
    if (!(await c.approvalAccept(userId, answer, known.publicKey))) throw new Error('approval refused');
  }
  await c.deviceProof(userId);
  browsers.push({ c, userId });
  const all = [...people].map(([u, p]) => ({ userId: u, publicKey: p.publicKey, version: 1 }));
  for (const b of browsers) await b.c.identitiesSeen(b.userId, all);
}
